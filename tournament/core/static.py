"""Static files, as WhiteNoise finds them, answered from memory."""

from django.http import HttpRequest, HttpResponse
from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.responders import StaticFile


class StaticFiles(WhiteNoiseMiddleware):
    """WhiteNoise, each file read whole and closed before its answer is
    sent: a client that reads slowly, or never, then holds no open file
    (the laptop's open files are the hall's connections,
    `tournament.core.front`). The site's files are small (its largest a
    stylesheet of a few dozen KB; the PDFs' fonts are never sent), and
    Django's ASGI handler reads a file answer into memory anyway."""

    @staticmethod
    def serve(static_file: StaticFile, request: HttpRequest) -> HttpResponse:
        found = static_file.get_response(request.method, request.META)
        content = b""
        if found.file is not None:
            with found.file:
                content = found.file.read()
        answer = HttpResponse(content, status=int(found.status))
        del answer["Content-Type"]  # WhiteNoise's headers name the type
        for name, value in found.headers:
            answer[name] = value
        return answer
