"""`{% rules_url %}`: a link into the rules pages (core/rulebook.py lists the anchors).

    {% load rulebook %}
    <a href="{% rules_url "decision-dare" %}">…</a>          /rules/#decision-dare
    <a href="{% rules_url "decision" awaiting.decision %}">   /rules/#decision-<key>
    <a href="{% rules_url game="trois" %}">                   /rules/trois/

A page is never broken by a link: an anchor the rules page lacks (a key the engine added
before the page explained it) links to the top of the page; tests/rulebook holds the page to
every key the engine has. In Python, core.rulebook.rules_url raises instead.
"""

from django import template

from core.rulebook import ANCHORS
from core.rulebook import rules_url as _rules_url

register = template.Library()


@register.simple_tag
def rules_url(kind: str = "", key: object = None, game: str = "split_uno") -> str:
    anchor = f"{kind}-{key}" if key not in (None, "") else kind
    if game != "split_uno" or anchor not in ANCHORS:
        anchor = ""
    return _rules_url(anchor, game=game)
