from django.apps import AppConfig


class FrontConfig(AppConfig):
    """The site's own pages, with their templates under templates/front/."""

    name = "bansugoroku.front"
    label = "front"
    verbose_name = "Pages"

    def ready(self) -> None:
        # Before any request reads a catalogue: a .po edited or pulled since the last
        # start is compiled now (bansugoroku/lib/translations.py).
        from bansugoroku.lib.translations import compile_messages

        compile_messages()
