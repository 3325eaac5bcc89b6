import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { actorOf } from '../../identity/actor';
import { parse, parseId } from '../../http/validate';
import type { ListenerStream } from './listener-hub';
import { listenAnswerBody, listenQuery } from './listen.schemas';
import { listenSessionNotFound, type ListenService } from './listen.service';

/** One Server-Sent Event (the `text/event-stream` format): its id, name and JSON data. */
export function serverSentEvent(event: { name: string; id?: string; data: unknown }): string {
  return `${event.id ? `id: ${event.id}\n` : ''}event: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * `listen` over Server-Sent Events (docs/listen.md#the-stream): the stream is an ordinary Koa
 * response body, so it passes the REST API's key, quota and permission checks before it opens;
 * the command's local answers come back as small REST calls.
 */
export function listenRoutes(deps: { listen: ListenService }): Router {
  const { listen } = deps;
  const router = new Router();

  router.get('/listen', async (ctx) => {
    const query = parse(listenQuery, ctx.query);
    const actor = actorOf(ctx);
    // Every refusal (permission, events, an unknown session) is thrown here, before the stream opens.
    const session = query.session
      ? await listen.resume(actor, query.session)
      : await listen.open(
          actor,
          query.events?.split(',').map((event) => event.trim()),
        );
    const body = new PassThrough();
    const stream: ListenerStream = {
      send: (event) => void body.write(serverSentEvent(event)),
      end: () => void body.end(),
    };
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
    stream.send({ name: 'session', data: session });
    const { detach } = listen.attach(actor, session.sessionId, stream);
    ctx.res.once('close', detach);
    if (query.session) {
      void listen
        .catchUp(actor, session.sessionId)
        .then((caughtUp) => stream.send({ name: 'resumed', data: caughtUp }))
        .catch(() => stream.send({ name: 'resumed', data: { resent: [], notResent: [], failed: true } }));
    }
  });

  router.post('/listen/:sessionId/answers', async (ctx) => {
    const sessionId = parseId(ctx.params.sessionId, listenSessionNotFound);
    const { deliveryId, ...answer } = parse(listenAnswerBody, ctx.request.body ?? {});
    await listen.answer(actorOf(ctx), sessionId, deliveryId, answer);
    ctx.status = 204;
  });

  return router;
}
