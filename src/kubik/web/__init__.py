"""The web table (``kubik serve``): the HTTP API and its pages, on the game layer."""
