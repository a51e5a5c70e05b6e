"""Page views: public pages, the organisers' console and the tablet page."""
