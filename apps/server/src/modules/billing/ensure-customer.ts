import type { Stripe } from "stripe";
import type { Queryable } from "../../db/client";
import type { Buyer } from "./payments";

export async function findCustomerId(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ stripe_customer_id: string }>(
    "SELECT stripe_customer_id FROM billing_customers WHERE user_id = $1",
    [userId],
  );
  return rows[0]?.stripe_customer_id ?? null;
}

/** Remembers the user's Stripe customer (first checkout, or one learnt from an event). */
export async function rememberCustomer(
  db: Queryable,
  userId: string,
  customerId: string,
): Promise<void> {
  await db.query(
    `INSERT INTO billing_customers (user_id, stripe_customer_id) VALUES ($1, $2)
     ON CONFLICT DO NOTHING`,
    [userId, customerId],
  );
}

/**
 * The user's Stripe customer, created on first use and reused after, so all their payments
 * and the portal live under one customer. The idempotency key keeps two concurrent first
 * checkouts from creating two customers.
 */
export async function ensureCustomer(db: Queryable, stripe: Stripe, user: Buyer): Promise<string> {
  const known = await findCustomerId(db, user.id);
  if (known) return known;
  const customer = await stripe.customers.create(
    { email: user.email, name: user.displayName, metadata: { user_id: user.id } },
    { idempotencyKey: `cohort-customer-${user.id}` },
  );
  await rememberCustomer(db, user.id, customer.id);
  return (await findCustomerId(db, user.id)) ?? customer.id;
}
