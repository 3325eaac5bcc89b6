// `npm start`: the whole service on this machine (architecture.md, "Two ways to run", 1).
import { start } from './app/start';

void start({ api: true, worker: true, embedded: true });
