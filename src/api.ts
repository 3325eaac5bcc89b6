// `npm run api`: the Koa API alone, against DATABASE_URL and TEMPORAL_ADDRESS (external mode).
import { start } from './app/start';

void start({ api: true, worker: false, embedded: false });
