import { randomUUID } from 'node:crypto';
import type { Sql, TransactionSql } from '../db/client';
import { ConflictError, GoneError, InvalidError } from '../errors/domainErrors';
import {
  countConfirmationsSince,
  findConfirmationForUpdate,
  forgetConfirmationsBefore,
  insertConfirmation,
  markConfirmationUsed,
  redactConfirmations,
  supersedeOpenConfirmations,
} from './contactConfirmationRepository';
import { confirmationIdOf, confirmationToken, matchesStoredHash, tokenHash } from './contactConfirmationToken';
import { loadContact, loadContactForUpdate, saveContact, savePendingEmail, type Contact } from './contactRepository';
import type { ContactBody, ContactView } from './contactSchemas';
import { textOf } from '../i18n/catalogue';
import { CONTACT_TEXTS } from '../i18n/contactTexts';
import { enqueueConfirmationEmail } from './outbox/outboxRepository';

/** How long a confirmation link works. */
export const CONFIRMATION_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Links one member may have sent within a day: enough to fix a typo a few times, too few to flood a stranger's mailbox. */
export const CONFIRMATIONS_PER_DAY = 5;
/** How long a link's row (and its address) is kept: past its lifetime, long enough to answer 410 and count the daily limit. */
const CONFIRMATION_KEPT_MS = 2 * CONFIRMATION_LIFETIME_MS;

/** Who is asking: their user id and the address their sign-in vouches for, if any. */
export interface ContactCaller {
  userId: string;
  signInEmail?: string;
}

const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  a != null && b != null && a.toLowerCase() === b.toLowerCase();

function view(contact: Contact, caller: ContactCaller): ContactView {
  return {
    email: contact.email,
    emailConfirmed: contact.email !== null,
    pendingEmail: contact.pendingEmail,
    signInEmail: caller.signInEmail ?? null,
    language: contact.language,
  };
}

export async function contactOf(sql: Sql, caller: ContactCaller): Promise<ContactView> {
  return view(await loadContact(sql, caller.userId), caller);
}

/**
 * PUT /api/user/contact. The address in use, or the sign-in's verified one, is taken at once;
 * null removes every address; the address already waiting keeps its link (a client that sends
 * it again with another language sends no second email); any other address waits for its owner
 * to open the link sent to it, and the address in use stays in use meanwhile.
 */
export async function changeContact(sql: Sql, caller: ContactCaller, body: ContactBody, now = new Date()): Promise<ContactView> {
  await sql.begin(async (tx) => {
    const current = await loadContactForUpdate(tx, caller.userId);
    await forgetConfirmationsBefore(tx, caller.userId, new Date(now.getTime() - CONFIRMATION_KEPT_MS));
    const { email, language } = body;
    if (sameAddress(email, current.email)) {
      await saveContact(tx, caller.userId, { email: current.email, language });
    } else if (email === null) {
      // Every address goes, the links' addresses too.
      await saveContact(tx, caller.userId, { email: null, language });
      await savePendingEmail(tx, caller.userId, null, language);
      await redactConfirmations(tx, caller.userId);
    } else if (sameAddress(email, caller.signInEmail)) {
      // Taken at once; an address still waiting for its link is given up.
      await saveContact(tx, caller.userId, { email, language });
      await savePendingEmail(tx, caller.userId, null, language);
      await supersedeOpenConfirmations(tx, caller.userId);
    } else if (sameAddress(email, current.pendingEmail)) {
      await savePendingEmail(tx, caller.userId, current.pendingEmail, language);
    } else {
      await sendConfirmation(tx, caller.userId, email, language, now);
    }
  });
  return contactOf(sql, caller);
}

async function sendConfirmation(tx: TransactionSql, userId: string, email: string, language: ContactBody['language'], now: Date) {
  const sent = await countConfirmationsSince(tx, userId, new Date(now.getTime() - 24 * 60 * 60 * 1000));
  if (sent >= CONFIRMATIONS_PER_DAY) {
    throw new ConflictError(`At most ${CONFIRMATIONS_PER_DAY} confirmation emails a day; try again tomorrow.`, {
      code: 'confirmation_limit',
    });
  }
  await supersedeOpenConfirmations(tx, userId);
  const id = randomUUID();
  await insertConfirmation(tx, {
    id,
    userId,
    email,
    tokenHash: tokenHash(confirmationToken(id)),
    createdAt: now,
    expiresAt: new Date(now.getTime() + CONFIRMATION_LIFETIME_MS),
  });
  await savePendingEmail(tx, userId, email, language);
  await enqueueConfirmationEmail(tx, {
    userId,
    confirmationId: id,
    title: textOf(CONTACT_TEXTS, 'confirmation.subject', language),
    deliverAfter: now,
  });
}

const NOT_A_LINK = 'is not the token of a confirmation link sent to you';

/**
 * POST /api/user/contact/confirmations: the link's address becomes the address in use. A token
 * that is not one of the caller's links is a 400 (another member's link is not even said to
 * exist); a used, replaced or expired one is a 410.
 */
export async function confirmContact(sql: Sql, caller: ContactCaller, token: string, now = new Date()): Promise<ContactView> {
  const id = confirmationIdOf(token);
  if (!id) throw new InvalidError('This confirmation link is not valid.', [{ path: 'token', message: NOT_A_LINK }]);
  await sql.begin(async (tx) => {
    const confirmation = await findConfirmationForUpdate(tx, id);
    if (!confirmation || confirmation.userId !== caller.userId || !matchesStoredHash(token, confirmation.tokenHash)) {
      throw new InvalidError('This confirmation link is not valid.', [{ path: 'token', message: NOT_A_LINK }]);
    }
    if (confirmation.usedAt) throw new GoneError('This link has already been used.', { code: 'confirmation_used' });
    if (confirmation.supersededAt) throw new GoneError('A newer link replaced this one.', { code: 'confirmation_replaced' });
    if (confirmation.expiresAt.getTime() <= now.getTime()) throw new GoneError('This link has expired.', { code: 'confirmation_expired' });
    if (confirmation.email === null) throw new GoneError('A newer link replaced this one.', { code: 'confirmation_replaced' });
    await markConfirmationUsed(tx, id);
    const current = await loadContactForUpdate(tx, caller.userId);
    await saveContact(tx, caller.userId, { email: confirmation.email, language: current.language });
  });
  return contactOf(sql, caller);
}
