// A shared library that is not a Qt plugin (no metadata), found in a plugin folder.
extern "C" int delineateNotAPlugin() {
  return 42;
}
