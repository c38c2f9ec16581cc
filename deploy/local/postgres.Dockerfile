# Postgres from Debian's package, standing in for the postgres image on machines that cannot pull it
# (docker-compose.local.yml). Takes the official image's POSTGRES_USER/PASSWORD/DB on first start.
FROM localhost/debian:bookworm
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
USER postgres
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
CMD ["postgres"]
