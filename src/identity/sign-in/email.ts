/** An email as accounts are keyed by it: sign-up, sign-in, members and the sign-in throttle. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
