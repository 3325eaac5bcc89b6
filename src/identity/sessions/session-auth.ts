import type { Context, Middleware } from 'koa';
import type { DataSource } from 'typeorm';
import { authenticationError, authorizationError } from '../../shared/app-error';
import { loadActor } from '../actor';
import { SESSION_LIFETIME_MS, findSession } from './sessions.service';
import { workspacesOf } from '../workspaces.service';

export const SESSION_COOKIE = 'crm_session';

/**
 * Secure when the request arrived over TLS (with TRUST_PROXY, as X-Forwarded-Proto says) or when
 * PUBLIC_URL is https: then TLS ends at a proxy, and the browser must never send the cookie over
 * plain HTTP.
 */
export function cookieSecurity(ctx: Context, publicUrl: string): { secure: boolean } {
  const secure = ctx.secure || publicUrl.startsWith('https:');
  // The cookies module refuses a Secure cookie on a request it saw as plain HTTP.
  if (secure) ctx.cookies.secure = true;
  return { secure };
}

export function setSessionCookie(ctx: Context, token: string, publicUrl: string): void {
  ctx.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    ...cookieSecurity(ctx, publicUrl),
    maxAge: SESSION_LIFETIME_MS,
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: Context, publicUrl: string): void {
  ctx.cookies.set(SESSION_COOKIE, null, {
    httpOnly: true,
    sameSite: 'lax',
    ...cookieSecurity(ctx, publicUrl),
    overwrite: true,
  });
}

/**
 * Refuses cross-site writes to the web app's routes: POST, PATCH, PUT and DELETE must carry an
 * Origin equal to the service's own (PUBLIC_URL, or the host it was reached on).
 */
export function requireSameOrigin(publicUrl: string): Middleware {
  const allowed = new URL(publicUrl).origin;
  return async (ctx, next) => {
    if (!['GET', 'HEAD', 'OPTIONS'].includes(ctx.method)) {
      const origin = ctx.get('origin');
      // Not ctx.origin: in Koa 3 it echoes the request's own Origin header.
      const reachedAs = `${ctx.protocol}://${ctx.host}`;
      if (!origin || (origin !== allowed && origin !== reachedAs)) {
        throw authorizationError('Cross-origin request refused.', 'originMismatch');
      }
    }
    await next();
  };
}

/**
 * Loads the signed-in user's actor in the session's current workspace (or their first one, if
 * that membership ended). Everything is read fresh on each request.
 *
 * An account whose address is not proven yet can do nothing (issue 34, account pre-claim): 403
 * `emailNotVerified`, unless the route says `allowUnverified` (reading the session, asking for
 * another link). Signing out needs no session at all.
 */
export function requireSession(
  dataSource: DataSource,
  options: { allowUnverified?: boolean } = {},
): Middleware {
  return async (ctx, next) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    const session = token ? await findSession(dataSource, token) : undefined;
    if (!token || !session) throw authenticationError('Sign in to continue.', 'notSignedIn');
    let actor = session.workspaceId
      ? await loadActor(dataSource.manager, session.workspaceId, session.userId)
      : undefined;
    if (!actor) {
      const [first] = await workspacesOf(dataSource.manager, session.userId);
      actor = first ? await loadActor(dataSource.manager, first.id, session.userId) : undefined;
    }
    if (!actor) throw authenticationError('You are not a member of any workspace.', 'noWorkspace');
    if (!actor.user.emailVerifiedAt && !options.allowUnverified) {
      throw authorizationError(
        'Confirm your e-mail address first: open the link we sent to it.',
        'emailNotVerified',
      );
    }
    ctx.state.actor = actor;
    ctx.state.sessionToken = token;
    await next();
  };
}
