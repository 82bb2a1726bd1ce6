"""What a player agreed to be sent and where: the e-mail address and its confirmation,
which notices they want, one-click unsubscribe and its signed tokens, and the browsers
and apps subscribed to push."""
