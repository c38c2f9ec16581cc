import { z } from 'zod';

// zod compiles object parsers with `new Function` when it may, and probes for that with a `new Function('')`
// of its own. Under the app's CSP (no 'unsafe-eval') the probe is refused and the browser reports a CSP
// violation on every page that builds a schema. Jitless parsing needs no eval. main.tsx imports this
// module first: the probe runs when the first z.object() is built, so this must come before any schema.
z.config({ jitless: true });
