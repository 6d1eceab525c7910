# Sourced by scripts/build.sh and scripts/check-ccache-reuse.sh: ccache's settings for this
# project. With CCACHE_BASEDIR at the source root, ccache writes the paths on each command line
# relative to it; with -ffile-prefix-map (CMakeLists.txt), debug info and __FILE__ are relative
# too, so the clone's folder is in no cache key and a fresh clone anywhere reuses the entries.
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd)}
