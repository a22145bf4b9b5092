# reportgen for the distributed deployment (docker-compose.yml): one image for the API replicas
# (`reportgen serve`) and the workers (`reportgen worker`).
# Written for Debian 12 (bookworm), the distribution the project is developed and tested on; it
# has not been built on the development machine (no container runtime is available there).
FROM python:3.11-slim-bookworm

# The Debian packages of the Makefile's DEB_PACKAGES (fonts, HarfBuzz subsetting, poppler) plus
# what WeasyPrint's Pango backend loads at run time.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji libharfbuzz-subset0 poppler-utils \
      libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b \
 && rm -rf /var/lib/apt/lists/*

# An unprivileged user; its data dir (corpus index, caches) and the shared outputs folder.
RUN useradd --create-home --uid 10001 reportgen \
 && mkdir -p /data/outputs /data/home && chown -R reportgen /data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY reportgen ./reportgen
COPY templates ./templates
COPY agents ./agents
RUN pip install --no-cache-dir '.[s3]'

USER reportgen
ENV REPORTGEN_HOME=/data/home \
    REPORTGEN_OUT_DIR=/data/outputs \
    PYTHONUNBUFFERED=1
EXPOSE 8000
# The API; the workers run `reportgen worker` (see docker-compose.yml).
CMD ["reportgen", "serve", "--host", "0.0.0.0", "--port", "8000"]
