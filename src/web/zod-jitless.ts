// The CSP has no 'unsafe-eval' (src/http/security-headers.ts). zod compiles its object parsers with
// `new Function` where it may, and its probe for that is reported as a CSP violation even though
// it fails quietly: its interpreted parsers do for the few schemas the app runs. Imported first by
// main.tsx, so this runs before any module builds a schema (zod reads the setting then).
import { z } from 'zod';

z.config({ jitless: true });
