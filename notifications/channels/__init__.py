"""The channels a notice goes by (e-mail through anymail, Web Push, FCM), their keys,
and the sending of one notice: claim it, decide, send through a channel, record."""
