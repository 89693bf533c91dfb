/** One email as the provider gets it. */
export interface OutgoingEmail {
  /**
   * The provider's idempotency key (ACS `Operation-Id`), derived from the outbox rows, so a
   * retry after a crash between "sent" and "recorded" names the same operation again.
   */
  operationId: string;
  to: string;
  subject: string;
  plainText: string;
  html: string;
  headers: Record<string, string>;
}

/** Sends one email; throws DeliveryFailure (transient or permanent) with the provider's reason. */
export interface EmailSender {
  send(email: OutgoingEmail): Promise<{ providerId: string }>;
}
