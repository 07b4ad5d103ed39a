/// `cardlua export`'s entry point: a Lua effect script's text in, one Swift file out.
public enum Exporter {}
