#pragma once
// ITK 5.2 sets up its object factories and global singletons lazily, on first use, without a
// lock: two threads that first read or write an image at the same moment may crash (a rare
// segfault; upstream ITK issues #5493 and pull request #4226). Every ITK entry point of core calls
// this first: the first caller does that setup, and concurrent first callers wait for it.
namespace delineate::core {

void ensureItkInitialized();

}  // namespace delineate::core
