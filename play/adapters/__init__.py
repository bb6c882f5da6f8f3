"""Pure adapters between the engines (``games``) and the table core: standard library only.

``base`` names what every adapter offers (``Adapter``) and the plain values it speaks in
(``Command``, ``Event``, ``Viewer``, ``Await``, ``Refused``).
"""
