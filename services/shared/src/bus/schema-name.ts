const SCHEMA_NAME = /^[a-z][a-z0-9_]*$/;

/** Returns a service schema name after checking it is safe to splice into SQL as an identifier. */
export function schemaIdentifier(name: string): string {
  if (!SCHEMA_NAME.test(name)) throw new Error(`Bad schema name ${JSON.stringify(name)}`);
  return name;
}
