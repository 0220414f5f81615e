"""The dashboard's pages hold no SQL: they call analytics functions, as the CLI does."""

from __future__ import annotations

import ast
import re
from pathlib import Path

DASHBOARD = Path(__file__).resolve().parents[2] / "dashboard"

#: What SQL text looks like in a string constant (keywords in capitals, as kroeg writes them).
SQL = re.compile(r"\bSELECT\b|\bFROM\b.*\bWHERE\b|\bJOIN\b|\bGROUP BY\b|\bIN \(|\bunnest\(")
#: A connection's methods that run SQL text.
RUNS_SQL = {"sql", "execute", "query"}


def sql_in(source: str) -> list[str]:
    """Every SQL-looking string constant and every call of `.sql(`/`.execute(` in
    `source`, as `line: text`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and SQL.search(node.value)
        ):
            found.append(f"{node.lineno}: {node.value[:60]!r}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in RUNS_SQL
        ):
            found.append(f"{node.lineno}: .{node.func.attr}(")
    return found


def test_the_check_finds_sql() -> None:
    assert sql_in('x = "SELECT count(*) AS n FROM games"') == [
        "1: 'SELECT count(*) AS n FROM games'"
    ]
    assert sql_in("con.execute(text)") == ["1: .execute("]
    assert sql_in('f"game_id IN (SELECT unnest(?::VARCHAR[]))"')
    assert sql_in('st.markdown("Games played at a venue")') == []
    assert sql_in('"Pick a select from the bars where a player won"') == []


def test_no_dashboard_module_holds_sql() -> None:
    files = sorted(DASHBOARD.rglob("*.py"))
    assert len(files) > 10
    found = {
        str(p.relative_to(DASHBOARD)): hits
        for p in files
        if (hits := sql_in(p.read_text(encoding="utf-8")))
    }
    assert found == {}
