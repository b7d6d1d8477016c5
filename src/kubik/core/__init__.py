"""Small values every layer shares: the errors a user can cause, kubik's limits on its
own work, and how long things are kept."""
