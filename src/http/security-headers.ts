import type { Middleware } from 'koa';

/**
 * The Content-Security-Policy of every answer. The web app is one module script and one stylesheet
 * under /assets (the built index.html has no inline script or style, and the bundle no eval), it
 * calls only its own origin, and nothing may frame it. React's `style` props are set through the
 * CSSOM, which style-src does not govern, so no 'unsafe-inline'. A JSON answer is never a document,
 * but carries the policy too: opened directly, it is one.
 */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
];

export const CONTENT_SECURITY_POLICY = DIRECTIVES.join('; ');

/**
 * oidc-provider's `form_post` response mode answers with a page that posts the code to the client's
 * redirect URI, on another origin: there form-action also takes the schemes a registered redirect
 * URI may use (https, and http on loopback; src/oauth/registration/client-metadata-rules.ts). Its inline script
 * needs nothing from us: oidc-provider adds its hash to the script-src it finds on the answer.
 * Its query mode, the one MCP clients use, is a 303 redirect, which form-action does not govern.
 */
export const CLIENT_FORM_POST_POLICY = DIRECTIVES.map((directive) =>
  directive.startsWith('form-action ') ? `${directive} https: http:` : directive,
).join('; ');

/** Sent with every answer, for browsers that predate frame-ancestors and to stop type sniffing. */
const FIXED_HEADERS = {
  'X-Frame-Options': 'DENY',
  // Addresses of the app hold workspace ids, search terms and the consent page's interaction id:
  // none of it goes to another site. Not `no-referrer`: browsers then send `Origin: null` on the
  // app's own writes, which requireSameOrigin refuses.
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The security headers of every answer: the web app's files and pages, the JSON APIs and their
 * errors, MCP, OAuth (oidc-provider and the MCP transport write the raw response, which keeps
 * headers set here before they run) and health. `formPostsToClients` names the paths whose
 * answers may post a form to an OAuth client (the authorization server's).
 */
export function securityHeaders(
  options: { formPostsToClients?: (path: string) => boolean } = {},
): Middleware {
  return async (ctx, next) => {
    ctx.set(FIXED_HEADERS);
    ctx.set(
      'Content-Security-Policy',
      options.formPostsToClients?.(ctx.path) ? CLIENT_FORM_POST_POLICY : CONTENT_SECURITY_POLICY,
    );
    await next();
  };
}
