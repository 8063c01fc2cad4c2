"""Per-game controllers: a pad role and what the screens are asking turn a tap into an action.

A controller never applies actions itself: it answers each tap or press with a `Reply`
(`firmware.controllers.base`), and the companion applies, journals and acknowledges.
"""
