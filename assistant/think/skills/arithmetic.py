"""Arithmetic from speech: "seven times eight", "fifteen percent of two hundred",
"what's 2 to the power of 10", "the square root of 81", "divide 10 by 4"; parts,
multiples and discounts ("half of 84", "double 21", "15 percent off 200") in
:mod:`~assistant.think.skills.portions`; tips, splits, primes, averages, remainders, rounding, Roman numerals
and counting in :mod:`~assistant.think.skills.number_facts`.

Guard: after the question words ("what is", "calculate"…) every word must be a number
or an operator, with at least one operator, so "what is the plus side of moving" or
"what is 5 star service" go to the LLM. The expression is evaluated by Python's own
parser (:mod:`ast`) on numbers and operators only, never by ``eval``.
"""

from __future__ import annotations

import ast
import math
import operator
import re

from assistant.writing import has_hangul
from assistant.think.skills import SkillContext, SkillReply, SkillSetup, korean_arithmetic, number_facts, portions
from assistant.think.skills.text import NUMBER, normalize, spoken_number

NAME = "arithmetic"
LARGEST = 1e15
"""Results beyond this are refused (they are not said usefully anyway)."""

_QUESTION = re.compile(
    r"^(?:(?:can you |could you )?(?:tell me )?(?:what is|what are|what does|what do|how much is|how much are"
    r"|what would be|calculate|compute|work out|solve|tell me) )?(?P<body>.+?)(?: equal| equals| make| is| come to)?$"
)
_ORDINAL_POWER = re.compile(rf"({NUMBER}) to the (\d+)(?:st|nd|rd|th)?(?: power)?\b")
_VERBS = (
    (re.compile(rf"^add ({NUMBER}) (?:and|to) ({NUMBER})$"), "{0} plus {1}"),
    (re.compile(rf"^(?:the )?sum of ({NUMBER}) and ({NUMBER})$"), "{0} plus {1}"),
    (re.compile(rf"^subtract ({NUMBER}) from ({NUMBER})$"), "{1} minus {0}"),
    (re.compile(rf"^multiply ({NUMBER}) (?:by|and|with) ({NUMBER})$"), "{0} times {1}"),
    (re.compile(rf"^(?:the )?product of ({NUMBER}) and ({NUMBER})$"), "{0} times {1}"),
    (re.compile(rf"^divide ({NUMBER}) by ({NUMBER})$"), "{0} divided by {1}"),
    (re.compile(rf"^(?:the )?square of ({NUMBER})$"), "{0} squared"),
    (re.compile(rf"^(?:the )?cube of ({NUMBER})$"), "{0} cubed"),
)
_TOKENS = (  # longest first; each spoken operator and its Python spelling
    ("to the power of", "**"), ("multiplied by", "*"), ("divided by", "/"), ("percent of", "/100*"),
    ("square root of", "sqrt"), ("the square root of", "sqrt"), ("plus", "+"), ("minus", "-"),
    ("times", "*"), ("over", "/"), ("squared", "**2"), ("cubed", "**3"),
)
_TOKEN = re.compile(
    rf"\s*({NUMBER}|" + "|".join(re.escape(words) for words, _ in sorted(_TOKENS, key=lambda t: -len(t[0]))) + r")\s*"
)
_PYTHON = dict(_TOKENS)
_OPERATORS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow, ast.USub: operator.neg, ast.UAdd: operator.pos,
}


class Arithmetic:
    name = NAME

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - protocol
        if has_hangul(text):
            return korean_arithmetic.match(NAME, text, context)
        said = normalize(text)
        question = _QUESTION.match(said)
        if question is None:
            return None
        body = _ORDINAL_POWER.sub(r"\1 to the power of \2", question["body"])  # "3 to the 4th"
        if (compared := _compare(said)) is not None:
            return SkillReply(NAME, compared)
        portion = portions.match(body)
        if portion is None:
            portion = number_facts.match(body)
        if portion is not None:
            return SkillReply(NAME, portion)
        for pattern, form in _VERBS:
            verb = pattern.match(body)
            if verb:
                body = form.format(*verb.groups())
                break
        expression = _python(body)
        if expression is None:
            return None
        try:
            value = _evaluate(ast.parse(expression, mode="eval").body)
        except ZeroDivisionError:
            return SkillReply(NAME, "Dividing by zero has no answer.")
        except OverflowError:
            value = math.inf
        except (ValueError, SyntaxError, TypeError):
            return None
        if isinstance(value, complex) or not abs(value) <= LARGEST:
            return SkillReply(NAME, "That number is too big for me to say.")
        return SkillReply(NAME, f"{_said(body)} is {spoken_number(value)}.")


_MORE = r"bigger|larger|greater|more|higher|smaller|less|lower"
_COMPARE = (re.compile(rf"^(?:which|what) (?:one |number )?is (?P<how>{_MORE})(?: of)? (?P<x>.+?) or (?P<y>.+)$"),
            re.compile(rf"^is (?P<x>.+?) (?P<how>{_MORE}) than (?P<y>.+)$"))


def _compare(said: str) -> str | None:
    """Which of two numbers or sums is the bigger ("which is bigger, 3 squared or 2 cubed"; "is 7 times 8 more than
    50"); None unless both sides are numbers or arithmetic."""
    found = next((m for form in _COMPARE if (m := form.match(said))), None)
    values = [_value(found["x"]), _value(found["y"])] if found else [None]
    if None in values:
        return None
    x, y = values
    bigger = found["how"] in ("bigger", "larger", "greater", "more", "higher")
    said_x, said_y = (found[k] for k in ("x", "y"))
    if found.re is _COMPARE[1]:
        yes = x > y if bigger else x < y
        relation = "more than" if x > y else "less than" if x < y else "the same as"
        said = [s if s == spoken_number(v) else f"{s}, {spoken_number(v)}," for s, v in ((said_x, x), (said_y, y))]
        return f"{'Yes' if yes else 'No'}, {said[0]} is {relation} {said[1].rstrip(',')}."
    if x == y:
        return f"They are the same: {spoken_number(x)}."
    first = (x > y) == bigger
    chosen, other = (said_x, said_y) if first else (said_y, said_x)
    chosen_value, other_value = (x, y) if first else (y, x)
    return f"{_said(chosen)} is {found['how']}: {spoken_number(chosen_value)} against {spoken_number(other_value)}."


def _value(said: str) -> float | None:
    """A number, or a sum's value ("3 squared"), as said; None otherwise."""
    if re.fullmatch(NUMBER, said):
        return float(said)
    expression = _python(_ORDINAL_POWER.sub(r"\1 to the power of \2", said))
    try:
        value = _evaluate(ast.parse(expression, mode="eval").body) if expression else None
    except (ArithmeticError, ValueError, SyntaxError, TypeError):
        return None
    return value if isinstance(value, (int, float)) and abs(value) <= LARGEST else None


def _python(body: str) -> str | None:
    """The expression in Python, or None unless ``body`` is only numbers and operators
    (at least one operator)."""
    parts, position, operators = [], 0, 0
    while position < len(body):
        token = _TOKEN.match(body, position)
        if token is None or token.end() == position:
            return None
        word = token.group(1)
        position = token.end()
        if word in _PYTHON:
            operators += 1
            parts.append(_PYTHON[word])
        else:
            parts.append(f"({word})")
    if not operators:
        return None
    expression = "".join(parts)
    expression = re.sub(r"sqrt(\([\d.]+\))", r"sqrt\1", expression)
    return expression


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and (abs(right) > 64 or abs(left) > LARGEST):
            raise OverflowError("power too large")
        return _OPERATORS[type(node.op)](left, right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sqrt" and len(node.args) == 1:
        return math.sqrt(_evaluate(node.args[0]))
    raise ValueError(f"not arithmetic: {ast.dump(node)}")


def _said(body: str) -> str:
    """The expression as the reply repeats it ("7 times 8"), first letter up."""
    return body[:1].upper() + body[1:]


def create(setup: SkillSetup) -> Arithmetic:  # noqa: ARG001 - every skill gets the setup
    return Arithmetic()
