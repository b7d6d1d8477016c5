"""An independent enumeration of blows for the tests: every die of one attack in
turn (hit, re-roll, wound, armour, ward, regeneration), then the attacks convolved.
Written from the rules' text, not from the procedure's code."""

from __future__ import annotations

from fractions import Fraction

SIXTH = Fraction(1, 6)


def at_least(needed: int | None) -> Fraction:
    """Chance a d6 shows ``needed`` or more (None: never)."""
    if needed is None or needed > 6:
        return Fraction(0)
    return Fraction(7 - max(needed, 1), 6)


def one_attack(
    *,
    hit: int | None,
    wound: int | None,
    armour: int | None,
    ward: int | None = None,
    regen: int | None = None,
    reroll: bool = False,
    poisoned: bool = False,
    killing: bool = False,
    flaming_flammable: bool = False,
    target_wounds: int = 1,
) -> dict[int, Fraction]:
    """Wounds one attack causes, as a distribution, die face by die face."""
    out: dict[int, Fraction] = {}

    def add(wounds: int, p: Fraction) -> None:
        out[wounds] = out.get(wounds, Fraction(0)) + p

    def after_wound(p: Fraction, *, armour_ok: bool, regen_ok: bool, kb: bool) -> None:
        for a in range(1, 7):
            pa = p * SIXTH
            if armour_ok and armour is not None and a >= armour:
                add(0, pa)
                continue
            for w in range(1, 7):
                pw = pa * SIXTH
                if ward is not None and w >= ward:
                    add(0, pw)
                    continue
                for r in range(1, 7):
                    pr = pw * SIXTH
                    if regen_ok and regen is not None and r >= regen:
                        add(0, pr)
                    elif kb:
                        add(target_wounds, pr)
                    else:
                        add(2 if flaming_flammable else 1, pr)

    def after_hit(face: int, p: Fraction) -> None:
        if poisoned and face == 6:
            after_wound(p, armour_ok=False, regen_ok=True, kb=False)
            return
        for w in range(1, 7):
            pw = p * SIXTH
            if wound is None or w < wound:
                add(0, pw)
            elif killing and w == 6:
                after_wound(pw, armour_ok=False, regen_ok=False, kb=True)
            else:
                after_wound(pw, armour_ok=True, regen_ok=True, kb=False)

    for h in range(1, 7):
        p = SIXTH
        if hit is not None and h >= hit:
            after_hit(h, p)
        elif reroll:
            for h2 in range(1, 7):
                if hit is not None and h2 >= hit:
                    after_hit(h2, p * SIXTH)
                else:
                    add(0, p * SIXTH)
        else:
            add(0, p)
    return out


def convolve(dist: dict[int, Fraction], times: int) -> dict[int, Fraction]:
    """The total of ``times`` independent draws."""
    total = {0: Fraction(1)}
    for _ in range(times):
        following: dict[int, Fraction] = {}
        for a, pa in total.items():
            for b, pb in dist.items():
                following[a + b] = following.get(a + b, Fraction(0)) + pa * pb
        total = following
    return {k: v for k, v in total.items() if v}
