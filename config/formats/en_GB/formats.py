# British English writes times on a 24-hour clock ("21:30"), as CLDR's en-GB does and as the
# big screen's clock (Intl, en-GB) shows them; Django's en_GB formats use "9:30 p.m.".
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
