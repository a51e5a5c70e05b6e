"""Server-rendered pages: public standings and scorecards, the organiser console, the tablet page."""
