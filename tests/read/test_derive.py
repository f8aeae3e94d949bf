"""Tests for benchproof.read.derive: the whitelist parser and the evaluator of `derive` expressions."""

from __future__ import annotations

import ast
import inspect
import math
import random
from fractions import Fraction

import pytest

from benchproof.read import derive
from benchproof.read.derive import Derivation, DeriveError, parse

PREFILL = "(prompt_n - cached_n) / prompt_ms * 1000"


# --- parse: fields ---------------------------------------------------------------------------


def test_fields_in_order_of_first_appearance_without_duplicates() -> None:
    assert parse(PREFILL).fields == ("prompt_n", "cached_n", "prompt_ms")
    assert parse("b * a + b / c - a").fields == ("b", "a", "c")
    assert parse("(z + (a * z)) ** 2 - -y").fields == ("z", "a", "y")


def test_derivation_value_object() -> None:
    d = parse("  a / b  ")
    assert d == Derivation("  a / b  ", ("a", "b"))
    assert d.expr == "  a / b  " and hash(d) == hash(Derivation("  a / b  ", ("a", "b")))
    with pytest.raises(AttributeError):
        d.expr = "c"  # type: ignore[misc]
    with pytest.raises(ValueError):
        Derivation("a / b", ("b", "a"))  # fields must be those of the expression


def test_derive_error_is_a_value_error() -> None:
    assert issubclass(DeriveError, ValueError)
    with pytest.raises(DeriveError, match="expected an expression, got int"):
        parse(5)  # type: ignore[arg-type]


# --- evaluate: values --------------------------------------------------------------------------


def test_prefill_example_is_exact() -> None:
    d = parse(PREFILL)
    got = d.evaluate({"prompt_n": 512, "cached_n": 0, "prompt_ms": 2510.18, "other": "x"})
    assert got == (512.0 - 0.0) / 2510.18 * 1000
    assert isinstance(got, float)


def test_numeric_strings_are_converted() -> None:
    d = parse(PREFILL)
    assert d.evaluate({"prompt_n": "512", "cached_n": " 0 ", "prompt_ms": " 2510.18 "}) == (
        (512.0 - 0.0) / 2510.18 * 1000
    )
    assert parse("x + y").evaluate({"x": "1e3", "y": "-0.5"}) == 999.5
    assert parse("x").evaluate({"x": 7}) == 7.0 and isinstance(parse("x").evaluate({"x": 7}), float)
    assert parse("x * 2").evaluate({"x": Fraction(1, 4)}) == 0.5


@pytest.mark.parametrize(
    "values",
    [
        {"prompt_n": 512, "cached_n": None, "prompt_ms": 2510.18},
        {"prompt_n": 512, "prompt_ms": 2510.18},
        {"prompt_n": 512, "cached_n": "", "prompt_ms": 2510.18},
        {"prompt_n": 512, "cached_n": "   ", "prompt_ms": 2510.18},
        {},
    ],
)
def test_not_measured_stays_not_measured(values: dict[str, object]) -> None:
    assert parse(PREFILL).evaluate(values) is None


def test_zero_is_a_measurement_not_a_missing_value() -> None:
    assert parse("a + b").evaluate({"a": 0, "b": "0"}) == 0.0


def test_bad_value_is_reported_even_when_another_field_is_missing() -> None:
    with pytest.raises(DeriveError, match="field 'b' is not a number: 'abc'"):
        parse("a + b").evaluate({"a": None, "b": "abc"})


def test_non_numeric_field_message() -> None:
    with pytest.raises(DeriveError) as e:
        parse(PREFILL).evaluate({"prompt_n": 512, "cached_n": 0, "prompt_ms": "abc"})
    assert str(e.value) == "field 'prompt_ms' is not a number: 'abc'"


@pytest.mark.parametrize("value", [True, False, [1], {"a": 1}, b"12", "12 ms", "0x10", "1_0", "١٢"])
def test_values_that_are_not_numbers(value: object) -> None:
    with pytest.raises(DeriveError, match=r"^field 'x' is not a number: "):
        parse("x + 1").evaluate({"x": value})


def test_values_beyond_a_double_are_rejected() -> None:
    with pytest.raises(DeriveError, match=r"^field 'x' is too large"):
        parse("x + 1").evaluate({"x": 10**400})


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "nan", "inf", " -Infinity "])
def test_non_finite_inputs_are_rejected(value: object) -> None:
    with pytest.raises(DeriveError, match=r"^field 'x' is not a finite number: "):
        parse("x + 1").evaluate({"x": value})


# --- evaluate: arithmetic ----------------------------------------------------------------------

EXPRESSIONS = [
    PREFILL,
    "a + b - c",
    "a - (b - c)",
    "a * b / c",
    "a / (b * c)",
    "-a ** 2",
    "(-a) ** 2",
    "a // b",
    "a % b",
    "-a % b",
    "a ** -2 + b ** 0.5 * c",
    "+a - -b",
    "a * 1000 / 3",
    "1 / 3 * a",
    "a / b / c",
    "(a + b) * (a - b) % c",
    "2 ** 8 * a",
    "a * 0.1 + b * 0.2 + c * 0.3",
]


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_bit_for_bit_equal_to_python_float_arithmetic(expr: str) -> None:
    rng = random.Random(expr)
    d = parse(expr)
    for _ in range(200):
        values = {
            name: rng.choice([rng.uniform(-1e6, 1e6), rng.uniform(0.5, 2), 1e16, 3.0])
            for name in ("prompt_n", "cached_n", "prompt_ms", "a", "b", "c")
        }
        values["b"] = abs(values["b"]) + 1.0  # keep 'b ** 0.5' real and denominators non-zero
        # Trusted, test-only reference: the same expression evaluated by Python on floats.
        expected = eval(compile(expr, "<test>", "eval"), {"__builtins__": {}}, dict(values))
        got = d.evaluate(values)
        assert got == expected and (math.copysign(1, got) == math.copysign(1, expected)), expr


def test_evaluation_order_is_the_expressions_own() -> None:
    values = {"a": 1e16, "b": 1.0, "c": 1e16}
    assert parse("a + b - c").evaluate(values) == 0.0
    assert parse("b - c + a").evaluate(values) == 0.0
    assert parse("a - c + b").evaluate(values) == 1.0


def test_division_by_zero_names_the_denominator() -> None:
    with pytest.raises(DeriveError) as e:
        parse(PREFILL).evaluate({"prompt_n": 512, "cached_n": 0, "prompt_ms": 0})
    assert str(e.value) == "division by zero: 'prompt_ms' is 0"
    with pytest.raises(DeriveError, match=r"^division by zero: 'prompt_ms' is 0$"):
        parse(PREFILL).evaluate({"prompt_n": 512, "cached_n": 0, "prompt_ms": "0.0"})
    with pytest.raises(DeriveError, match=r"^division by zero: 'b - c' is 0$"):
        parse("a / (b - c)").evaluate({"a": 1, "b": 2, "c": 2})


@pytest.mark.parametrize("expr", ["a % b", "a // b", "a % (b)"])
def test_modulo_and_floor_division_by_zero(expr: str) -> None:
    with pytest.raises(DeriveError, match=r"^division by zero: 'b' is 0$"):
        parse(expr).evaluate({"a": 1, "b": -0.0})


def test_zero_to_a_negative_power() -> None:
    with pytest.raises(DeriveError, match=r"^division by zero: 'a' is 0 .*negative power"):
        parse("a ** -2").evaluate({"a": 0})


@pytest.mark.parametrize(
    ("expr", "values"),
    [
        ("x ** 8", {"x": 1e300}),
        ("x * y", {"x": 1e300, "y": 1e300}),
        ("x + y", {"x": 1.7e308, "y": 1.7e308}),
        ("x / y", {"x": 1e300, "y": 1e-300}),
        ("x // y", {"x": 1e308, "y": 1e-308}),
        ("((x ** 8) ** 8) ** 8", {"x": 10}),
    ],
)
def test_overflow_is_an_error(expr: str, values: dict[str, float]) -> None:
    with pytest.raises(DeriveError, match="^result is too large: "):
        parse(expr).evaluate(values)


def test_complex_result_is_an_error() -> None:
    with pytest.raises(DeriveError, match=r"^result is not a real number: 'x \*\* 0.5'$"):
        parse("x ** 0.5").evaluate({"x": -8})


# --- parse: the whitelist ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("abs(x)", "derive: function calls are not allowed ('abs(x)')"),
        ("__import__('os').system('ls')", "derive: function calls are not allowed"),
        ("__import__('os').system", "derive: attributes are not allowed"),
        ("x.real", "derive: attributes are not allowed ('x.real')"),
        ("x[0]", "derive: subscripts are not allowed ('x[0]')"),
        ("x < 1", "derive: comparisons are not allowed ('x < 1')"),
        ("x and y", "derive: 'and'/'or' are not allowed"),
        ("x if y else z", "derive: 'if'/'else' is not allowed"),
        ("x + 'a'", "derive: strings are not allowed (\"'a'\")"),
        ("x + b'a'", "derive: bytes are not allowed"),
        ("x * 1j", "derive: complex numbers are not allowed ('1j')"),
        ("x + True", "derive: 'True' is not allowed ('True')"),
        ("x + None", "derive: 'None' is not allowed"),
        ("x + ...", "derive: ellipsis values are not allowed"),
        ("(lambda: x)", "derive: lambdas are not allowed"),
        ("f'{x}'", "derive: f-strings are not allowed"),
        ("(y := x)", "derive: ':=' is not allowed"),
        ("[x for x in y]", "derive: comprehensions are not allowed"),
        ("(x for x in y)", "derive: comprehensions are not allowed"),
        ("[x]", "derive: lists, tuples, sets and dicts are not allowed"),
        ("x, y", "derive: lists, tuples, sets and dicts are not allowed"),
        ("{x: y}", "derive: lists, tuples, sets and dicts are not allowed"),
        ("x & y", "derive: the operator '&' is not allowed ('x & y')"),
        ("x << 2", "derive: the operator '<<' is not allowed"),
        ("x @ y", "derive: the operator '@' is not allowed"),
        ("~x", "derive: the operator '~' is not allowed"),
        ("not x", "derive: the operator 'not' is not allowed"),
        ("await x", "derive: Await is not allowed"),
        ("__builtins__", "derive: names starting with '_' are not allowed ('__builtins__')"),
        ("x + _private", "derive: names starting with '_' are not allowed ('_private')"),
        ("x * " + "9" * 400, "derive: this number is too large"),
    ],
)
def test_forbidden_constructs(expr: str, message: str) -> None:
    with pytest.raises(DeriveError) as e:
        parse(expr)
    assert str(e.value).startswith(message), str(e.value)


@pytest.mark.parametrize("expr", ["x +", "", "   ", "x y", "(x", "x = 1", "import os", "x\x00"])
def test_syntax_errors(expr: str) -> None:
    with pytest.raises(DeriveError, match="^derive: invalid expression: "):
        parse(expr)


@pytest.mark.parametrize("expr", ["1 + 2", "2 ** 8", "(3)"])
def test_an_expression_needs_a_field(expr: str) -> None:
    with pytest.raises(DeriveError, match="^derive: the expression uses no fields"):
        parse(expr)


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("x ** 8", 256.0),
        ("x ** -8", 2.0**-8),
        ("x ** +8", 256.0),
        ("x ** (-2)", 0.25),
        ("x ** 0.5", 2.0**0.5),
        ("x ** 8.0", 256.0),
        ("(x ** 8) ** 8", 2.0**64),
        ("x ** 0", 1.0),
    ],
)
def test_allowed_powers(expr: str, expected: float) -> None:
    assert parse(expr).evaluate({"x": 2}) == expected


@pytest.mark.parametrize(
    "expr",
    [
        "x ** 9",
        "x ** -9",
        "x ** 8.5",
        "x ** y",
        "2 ** x",
        "x ** (4 + 4)",
        "x ** 8 ** 8",
        "x ** --2",
        "x ** 10 ** 100",
        "x ** " + "9" * 400,
    ],
)
def test_power_limits(expr: str) -> None:
    with pytest.raises(DeriveError, match=r"^derive: '\*\*' needs a number from -8 to 8"):
        parse(expr)


def test_length_limit() -> None:
    longest = "x" + " + x" * 124 + "   "  # 497 characters of expression, blanks are stripped
    assert len(longest.strip()) <= derive.MAX_LENGTH
    assert parse(longest).evaluate({"x": 1}) == 125.0
    with pytest.raises(DeriveError, match=r"^derive: expression is too long \(501 characters"):
        parse("x" * 501)


def test_deep_nesting_is_an_error_or_works_but_never_crashes() -> None:
    assert parse("-" * 499 + "x").evaluate({"x": 2}) == -2.0
    assert parse("(" * 150 + "x" + ")" * 150).evaluate({"x": 2}) == 2.0
    with pytest.raises(DeriveError):
        parse("(" * 240 + "x" + ")" * 240)


def test_multiline_parenthesised_expression() -> None:
    d = parse("(prompt_n\n - cached_n) / prompt_ms")
    assert d.fields == ("prompt_n", "cached_n", "prompt_ms")
    with pytest.raises(DeriveError, match=r"^division by zero: 'prompt_ms' is 0$"):
        d.evaluate({"prompt_n": 1, "cached_n": 0, "prompt_ms": 0})


def test_module_never_calls_eval_exec_or_compile() -> None:
    tree = ast.parse(inspect.getsource(derive))
    called = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert not called & {"eval", "exec", "compile", "__import__", "getattr"}
