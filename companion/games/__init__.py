"""The four games of this package, each a folder that is the whole game (rules, catalog, page,
messages), registered under the ``companion.games`` entry-point group like any plugin (see
:mod:`companion.engine.registry`)."""
