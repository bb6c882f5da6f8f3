"""The site's own date and time formats where Django's differ from the common usage of a
language (settings.FORMAT_MODULE_PATH; every name not set here is Django's). Issue 29."""
