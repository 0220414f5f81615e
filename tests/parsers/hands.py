"""A typed hand the parser tests share: the seed 003 example's deal, played to its end."""

HAND = """hand 1, dealer Dan
Anna: Jh Jc Td 9s; Ben: Qh Qc Jd 8s; Carla: Kh Kc 7d As; Dan: Ah 7c 8d Qd
1. Anna Jh, Ben Qh, Carla Kh, Dan Ah
2. Dan 7c, Anna Jc, Ben Qc, Carla Kc
3. Dan 8d, Anna Td, Ben Jd, Carla 7d
4. Anna 9s, Ben 8s, Carla As, Dan Qd
"""
