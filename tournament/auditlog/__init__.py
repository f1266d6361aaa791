"""The organizer's audit log (Protokoll): every recorded write, filtered."""
