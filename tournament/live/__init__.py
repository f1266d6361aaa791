"""Live pages: after a change (`invalidation`) every open page gets the new
part of itself (`fragments`, registered by the features) over its socket
(`consumers`), or polls it (`views`)."""
