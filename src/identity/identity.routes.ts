import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Pool } from 'pg';
import { IsNull, type DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { Config } from '../config';
import { authorizationError, notFoundError } from '../shared/app-error';
import { actorOf } from './actor';
import { clearSessionCookie, setSessionCookie } from './sessions/session-auth';
import { parse } from '../http/validate';
import { changePassword, signIn, signUp } from './sign-in/accounts.service';
import type { IdentityHooks } from './identity-hooks';
import { loadActor } from './actor';
import {
  resendVerificationMail,
  sendVerificationMail,
  verifyEmail,
  type MailDeps,
} from './email-proof/email-proof.service';
import { lockNotifier } from './email-proof/lock-notice';
import { completePasswordReset, requestPasswordReset } from './email-proof/password-reset.service';
import {
  acceptInvitation,
  acceptInvitationAsNew,
  previewInvitation,
} from './invitations/invitations.service';
import {
  acceptInvitationAsNewBody,
  changePasswordBody,
  completePasswordResetBody,
  emailTokenBody,
  passwordResetBody,
  createWorkspaceBody,
  signInBody,
  signUpBody,
  switchWorkspaceBody,
} from './identity.schemas';
import { createSession, deleteSession, setSessionWorkspace } from './sessions/sessions.service';
import { sessionView } from './sessions/session-view-of';
import { DEVICE_COOKIE, DeviceCookies } from './sign-in/device-cookie';
import { signInThrottleOf } from './sign-in/sign-in-throttle';
import { AppError } from '../shared/app-error';
import { FailureThrottle, INVALID_LINK_REFUSAL } from '../security/failure-throttle';
import { Workspace } from './workspace.entity';
import { addWorkspaceForUser, workspacesOf } from './workspaces.service';

/**
 * `/app/api/auth/*`, `/app/api/session*`, `/app/api/workspaces`, `/app/api/onboarding/*`
 * (docs/app-api.md).
 */
export function identityRoutes(deps: {
  dataSource: DataSource;
  config: Config;
  hooks: IdentityHooks;
  /** The session check of signed-in routes, with the web app's quota and line (src/app/http-app.ts). */
  signedIn: Middleware;
  /** The same, letting an account whose address is not proven yet through. */
  signedInUnverified: Middleware;
  mail: MailDeps;
}): Router {
  const { dataSource, config } = deps;
  const router = new Router();
  // Counted in PostgreSQL, so every API process shares the locks (docs/security.md).
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  // The owner hears by mail when strangers' failures first lock the account (lock-notice.ts).
  const throttle = signInThrottleOf(pool, config, lockNotifier(deps.mail, pool));
  const devices = new DeviceCookies(config.ENCRYPTION_KEY!, config.SIGN_IN_DEVICE_COOKIE_DAYS);
  // E-mailed links need no account: each one that is not valid counts against the client address,
  // and a blocked address is refused before its token is looked up (docs/security.md).
  const invalidLinks = FailureThrottle.postgres(pool, config, {
    keyPrefix: 'link-failures-address',
    refusal: INVALID_LINK_REFUSAL,
  });
  const openingLink = async <T>(ip: string, open: () => Promise<T>): Promise<T> => {
    invalidLinks.check(ip);
    try {
      return await open();
    } catch (error) {
      if (isInvalidLink(error)) await invalidLinks.fail(ip);
      throw error;
    }
  };

  const answerSession = async (userId: string, workspaceId: string) => {
    const actor = await loadActor(dataSource.manager, workspaceId, userId);
    if (!actor) throw notFoundError('Workspace not found.', 'workspaceNotFound');
    return sessionView(actor, await workspacesOf(dataSource.manager, userId), config);
  };

  router.post('/auth/sign-up', async (ctx) => {
    const body = parse(signUpBody, ctx.request.body);
    // Every attempt counts, a taken email too: "email taken" tells whether an account exists (the
    // web app must say so), and the allowance bounds how many emails one address can test.
    await throttle.signUp(ctx.ip);
    const { user, workspace } = await signUp(dataSource, body, deps.hooks);
    // The account is unverified until the e-mailed link is opened; the session can read itself,
    // sign out and ask for another link, nothing else.
    await sendVerificationMail(deps.mail, user);
    setSessionCookie(ctx, await createSession(dataSource, user.id, workspace.id), config.PUBLIC_URL);
    // No device cookie yet: whoever signs up with an address may not own it (a stranger's
    // pre-claim), and a known browser is exempt from the account's lock. The mailed link gives it.
    ctx.status = 201;
    ctx.body = await answerSession(user.id, workspace.id);
  });

  router.post('/auth/sign-in', async (ctx) => {
    const body = parse(signInBody, ctx.request.body);
    // A browser that signed in to this account before is counted apart (device-cookie.ts).
    const device = devices.deviceFor(ctx.cookies.get(DEVICE_COOKIE), body.email);
    // ctx.ip: the peer, or X-Forwarded-For's client only with TRUST_PROXY (Koa's `proxy`).
    const user = await signIn(dataSource, throttle, { ...body, ip: ctx.ip, device });
    const [first] = await workspacesOf(dataSource.manager, user.id);
    if (!first) throw notFoundError('You are not a member of any workspace.', 'noWorkspace');
    setSessionCookie(ctx, await createSession(dataSource, user.id, first.id), config.PUBLIC_URL);
    // Each time this browser proves the password (sign-in, change password) it gets a
    // fresh one (a new nonce, a new lifetime), replacing any other account's.
    devices.set(ctx, devices.issue(user.email), config.PUBLIC_URL);
    ctx.body = await answerSession(user.id, first.id);
  });

  router.post('/auth/sign-out', async (ctx) => {
    const token = ctx.cookies.get('crm_session');
    if (token) await deleteSession(dataSource, token);
    clearSessionCookie(ctx, config.PUBLIC_URL);
    ctx.status = 204;
  });

  router.post('/auth/verify-email', async (ctx) => {
    // No session needed: the link may be opened in another browser than the one that signed up.
    const { token } = parse(emailTokenBody, ctx.request.body);
    const { email } = await openingLink(ctx.ip, () => verifyEmail(dataSource, token));
    // Opening an e-mailed link proves the inbox, as a sign-in proves the password: this browser is
    // a known one for the account (device-cookie.ts), which strangers' guesses cannot lock out.
    devices.set(ctx, devices.issue(email), config.PUBLIC_URL);
    ctx.status = 204;
  });

  router.post('/auth/password-reset', async (ctx) => {
    const { email } = parse(passwordResetBody, ctx.request.body);
    await requestPasswordReset({ ...deps.mail, throttle }, { email, ip: ctx.ip });
    // The same answer whether or not an account has this email.
    ctx.status = 202;
    ctx.body = {};
  });

  router.post('/auth/password-reset/complete', async (ctx) => {
    const body = parse(completePasswordResetBody, ctx.request.body);
    const { email } = await openingLink(ctx.ip, () => completePasswordReset(dataSource, throttle, body));
    // Every session of the user ended, this browser's too if it had one: sign in with the new password.
    clearSessionCookie(ctx, config.PUBLIC_URL);
    // The link proved the inbox: this browser signs in by its own device lock from now on, so the
    // owner who reset the password is not refused while strangers keep the account locked.
    devices.set(ctx, devices.issue(email), config.PUBLIC_URL);
    ctx.status = 204;
  });

  // Invitations (issue 34): where a link leads, and accepting it by creating an account.
  router.post('/invitations/preview', async (ctx) => {
    const { token } = parse(emailTokenBody, ctx.request.body);
    ctx.body = await openingLink(ctx.ip, () => previewInvitation(dataSource, token));
  });

  router.post('/invitations/accept-new', async (ctx) => {
    const body = parse(acceptInvitationAsNewBody, ctx.request.body);
    const { userId, email, workspaceId } = await openingLink(ctx.ip, () =>
      acceptInvitationAsNew(dataSource, body),
    );
    setSessionCookie(ctx, await createSession(dataSource, userId, workspaceId), config.PUBLIC_URL);
    // The link proved the inbox and the person chose the password here: a known browser.
    devices.set(ctx, devices.issue(email), config.PUBLIC_URL);
    ctx.status = 201;
    ctx.body = await answerSession(userId, workspaceId);
  });

  const { signedIn, signedInUnverified } = deps;

  // Accepting while signed in: a verified account (signedIn refuses others) of the invited address.
  router.post('/invitations/accept', signedIn, async (ctx) => {
    const { token } = parse(emailTokenBody, ctx.request.body);
    const userId = actorOf(ctx).user.id;
    const workspaceId = await acceptInvitation(dataSource, userId, token);
    await setSessionWorkspace(dataSource, ctx.state.sessionToken!, workspaceId);
    ctx.body = await answerSession(userId, workspaceId);
  });

  router.post('/auth/verify-email/resend', signedInUnverified, async (ctx) => {
    await resendVerificationMail(deps.mail, actorOf(ctx).user.id);
    ctx.status = 204;
  });

  router.get('/session', signedInUnverified, async (ctx) => {
    const actor = actorOf(ctx);
    ctx.body = sessionView(actor, await workspacesOf(dataSource.manager, actor.user.id), config);
  });

  router.post('/session/workspace', signedIn, async (ctx) => {
    const { workspaceId } = parse(switchWorkspaceBody, ctx.request.body);
    const actor = actorOf(ctx);
    const view = await answerSession(actor.user.id, workspaceId);
    await setSessionWorkspace(dataSource, ctx.state.sessionToken!, workspaceId);
    ctx.body = view;
  });

  router.post('/auth/password', signedIn, async (ctx) => {
    const { currentPassword, newPassword } = parse(changePasswordBody, ctx.request.body);
    await changePassword(dataSource, throttle, {
      userId: actorOf(ctx).user.id,
      currentPassword,
      newPassword,
      sessionToken: ctx.state.sessionToken!,
    });
    devices.set(ctx, devices.issue(actorOf(ctx).user.email), config.PUBLIC_URL);
    ctx.status = 204;
  });

  // Any signed-in user may start a workspace of their own, whatever their role in this one, up to
  // WORKSPACES_PER_PERSON created in all (each workspace has a request quota of its own).
  router.post('/workspaces', signedIn, async (ctx) => {
    const { name } = parse(createWorkspaceBody, ctx.request.body);
    const userId = actorOf(ctx).user.id;
    const workspace = await addWorkspaceForUser(
      dataSource,
      { userId, name, limit: config.WORKSPACES_PER_PERSON },
      deps.hooks,
    );
    await setSessionWorkspace(dataSource, ctx.state.sessionToken!, workspace.id);
    ctx.status = 201;
    ctx.body = await answerSession(userId, workspace.id);
  });

  router.post('/onboarding/complete', signedIn, async (ctx) => {
    const actor = actorOf(ctx);
    if (!actor.permissions.manageWorkspace) {
      throw authorizationError('Only an Admin can finish the onboarding.', 'insufficientPermissions');
    }
    await dataSource.manager.update(
      Workspace,
      { id: actor.workspace.id, onboardedAt: IsNull() },
      { onboardedAt: new Date() },
    );
    ctx.status = 204;
  });

  return router;
}

/** The refusal of a link whose token is unknown, used, replaced or expired. */
const isInvalidLink = (error: unknown) =>
  error instanceof AppError &&
  error.issues.some(
    (issue) => issue.customCode === 'tokenInvalid' || issue.customCode === 'invitationInvalid',
  );
