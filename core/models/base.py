"""What every row model shares: the camelCase JSON form with its damage, the fast unvalidated
construction, and lenient JSON parsing."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from core.damage import Damage, damage_json, loads_json

MATURITIES: tuple[str, ...] = ("playbook", "draft", "confirmed", "stable", "deprecated")
Maturity = Literal["playbook", "draft", "confirmed", "stable", "deprecated"]
FactKind = Literal["state", "event"]
SkillKind = Literal["positive", "negative"]
ROLES: tuple[str, ...] = ("system", "user", "assistant", "tool")


_CONSTRUCT_PLANS: dict[type, list[tuple[str, bool, Any]]] = {}


class RowModel(BaseModel):
    """A row of a core table, read with :class:`core.damage.RowReader` by each model's ``from_row``."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        arbitrary_types_allowed=True,
        ser_json_inf_nan="constants",
    )

    #: Values that could not be read as their column promises, by column (not in ``model_dump``).
    damaged: dict[str, Damage] = Field(default_factory=dict, exclude=True)

    def to_json(self) -> dict[str, Any]:
        """The camelCase JSON-ready dict (NaN/Infinity kept as floats) with ``damaged`` reported:
        ``{camelCase field: Damage.to_json()}``; a damaged value with nothing readable is ``null``."""
        # A row holds its values as stored (model_construct), as the agent reads them: a fraction in a
        # counter of a file edited by hand is output as that number, never a serializer warning on stderr.
        out = self.model_dump(by_alias=True, warnings=False)
        damaged = self.damaged
        if damaged:
            for col, d in damaged.items():
                key = to_camel(col)
                if d.unreadable and key in out:
                    out[key] = None
        out["damaged"] = damage_json(damaged, to_camel)
        return out

    @property
    def is_damaged(self) -> bool:
        return bool(self.damaged)

    def damage_of(self, column: str) -> Damage | None:
        """The damage of one column (its SQL name), or ``None`` when it was read as stored."""
        return self.damaged.get(column)

    @classmethod
    def model_construct(cls, _fields_set: set[str] | None = None, **values: Any) -> Any:
        """Build a row without validation, several times faster than pydantic's own.

        Rows come from the database and are read as they are (validation would reject the very
        data a person needs to see, such as a NaN confidence); missing fields take their defaults.
        """
        plan = _CONSTRUCT_PLANS.get(cls)
        if plan is None:
            plan = _CONSTRUCT_PLANS[cls] = [
                (name, field.default_factory is not None, field.default_factory or field.default)
                for name, field in cls.model_fields.items()
            ]
        data: dict[str, Any] = {}
        for name, is_factory, default in plan:
            if name in values:
                data[name] = values[name]
            else:
                data[name] = default() if is_factory else default
        m = object.__new__(cls)
        object.__setattr__(m, "__dict__", data)
        object.__setattr__(m, "__pydantic_fields_set__", set(values) if _fields_set is None else _fields_set)
        object.__setattr__(m, "__pydantic_extra__", None)
        object.__setattr__(m, "__pydantic_private__", None)
        return m


def parse_json_lenient(text: str | None) -> tuple[Any, str | None]:
    """``(value, error)``: the parsed JSON, or ``(None, message)`` when ``text`` is not JSON as
    JavaScript reads it (``NaN``/``Infinity`` are not JSON; nesting beyond
    :data:`core.damage.MAX_JSON_DEPTH` is refused)."""
    if text is None:
        return None, None
    if not isinstance(text, str):
        return None, f"invalid JSON: not text ({type(text).__name__})"
    value, problem, message = loads_json(text)
    if problem is None or problem == "out_of_range":
        return value, None
    return None, message if problem == "invalid_json" else f"invalid JSON: {message}"
