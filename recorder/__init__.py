"""The engine: every rule, the events, the store (docs/ARCHITECTURE.md).

Some of its modules are also built as C extensions (setup.py, mypyc); `kroeg._native`
says which run compiled here.
"""
