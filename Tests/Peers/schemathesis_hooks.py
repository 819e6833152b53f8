"""Schemathesis hooks for Revue's document (loaded through SCHEMATHESIS_HOOKS by
SchemathesisTests): WHIP offers are `application/sdp`, text Schemathesis has no serializer for,
so what it generates for them is sent as UTF-8 text."""
import schemathesis


@schemathesis.serializer("application/sdp")
def serialize_sdp(context, value):
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8")
