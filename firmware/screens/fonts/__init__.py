"""The screens' bitmap fonts as ASCII-art glyph files (see `bake.py` and `../font.py`)."""
