"""Words for people: messages, their English and Russian catalogues, Russian grammar.

The bottom layer for text: it imports neither the dice nor the engine (a value that
says itself in a language, such as a die, renders through :class:`~kubik.text.i18n.Said`).
"""
