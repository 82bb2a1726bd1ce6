# Notification models arrive with the game service.
