from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and roles"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from .language import remember_on_sign_in

        user_logged_in.connect(remember_on_sign_in, dispatch_uid="accounts.language")
