// `npm start`: the whole service on this machine (README.md#the-two-commands).
import { start } from './app/start';

void start({ api: true, worker: true, embedded: true });
