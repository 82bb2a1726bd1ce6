from django.apps import AppConfig


class FrontConfig(AppConfig):
    """The site's own pages, with their templates under templates/front/."""

    name = "bansugoroku.front"
    label = "front"
    verbose_name = "Pages"
