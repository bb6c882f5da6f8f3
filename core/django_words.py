"""Words of Django and django-axes that reach a person here, marked again in our own code so
that `makemessages` copies them into our catalogue (issue 29).

Why: a language's own Django catalogue may lack them (Django's Malay catalogue lacks the
plural "Ensure this value has at most …" and the password length messages that French has;
django-axes ships no Spanish or Malay), and our catalogue (settings.LOCALE_PATHS) is read
before Django's and the apps'. Each msgid here is exactly Django's or axes's (the test in
tests/accounts/test_language.py checks that each is one of theirs), so a message Django makes
is looked up in ours first. Nothing here is called: `gettext_noop` marks a word and returns
it unchanged, `ngettext_lazy` is never evaluated.

Which: the errors of the form fields this site uses (required, choices, lengths, numbers,
dates, e-mail addresses, files), of a model's unique fields, the sign-in, sign-up, password
change and reset forms (labels, help texts, errors), the password validators of
settings.AUTH_PASSWORD_VALIDATORS, and axes's lockout messages.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

WORDS = (
    # django.forms.fields and django.core.validators
    gettext_noop("This field is required."),
    gettext_noop("Enter a valid value."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Enter a valid URL."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Enter a number."),
    gettext_noop("Enter a valid date."),
    gettext_noop("Enter a valid time."),
    gettext_noop("Enter a valid date/time."),
    gettext_noop("Enter a list of values."),
    gettext_noop("Null characters are not allowed."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Select a valid choice. That choice is not one of the available choices."),
    gettext_noop("No file was submitted. Check the encoding type on the form."),
    gettext_noop("No file was submitted."),
    gettext_noop("The submitted file is empty."),
    gettext_noop(
        "%(datetime)s couldn’t be interpreted in time zone %(current_timezone)s; it may be "
        "ambiguous or it may not exist."
    ),
    # django.db.models (a ModelForm's checks)
    gettext_noop("This field cannot be blank."),
    gettext_noop("This field cannot be null."),
    gettext_noop("Value %(value)r is not a valid choice."),
    gettext_noop("%(model_name)s with this %(field_label)s already exists."),
    # django.contrib.auth: the user's fields, the forms, the username validator
    gettext_noop("username"),
    gettext_noop("email address"),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("A user with that username already exists."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and "
        "@/./+/-/_ characters."
    ),
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("This account is inactive."),
    gettext_noop("Email"),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Old password"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    # django.contrib.auth.password_validation (settings.AUTH_PASSWORD_VALIDATORS)
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),
    # django-axes (axes.conf): its lockout messages
    gettext_noop("Account locked: too many login attempts. Please try again later."),
    gettext_noop(
        "Account locked: too many login attempts. Contact an admin to unlock your account."
    ),
    # django.utils.dateformat: a 12-hour clock's marks (Malay: Django's catalogue says
    # "malam", night, for every p.m.; CLDR's Malay says "PTG" and "PG")
    gettext_noop("a.m."),
    gettext_noop("p.m."),
    gettext_noop("midnight"),
    gettext_noop("noon"),
)

PLURALS = (
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
    ngettext_lazy(
        "Ensure this value has at least %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at least %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
    ngettext_lazy(
        "Ensure this filename has at most %(max)d character (it has %(length)d).",
        "Ensure this filename has at most %(max)d characters (it has %(length)d).",
        "max",
    ),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
)
