import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { clock } from '../shared/clock';

/**
 * What the trigger nodes use to decide whether a delivery is genuine: an HMAC-SHA256 verifier that never
 * throws (a malformed request is a reason, not an exception) and timing-safe comparisons. Whether a genuine
 * delivery is new is `dedup.ts`'s question. Pure functions, no n8n types.
 */

/** Deliveries whose timestamp is further than this from our clock (either direction) are refused. */
const DEFAULT_TOLERANCE_SECONDS = 300;

interface SignatureCheck {
	/** The shared secret configured in the service's dashboard. */
	secret: string | undefined;
	/** The exact bytes received (n8n: `getRequestObject().rawBody`). Never a re-serialized body. */
	rawBody: Buffer | string | undefined;
	/** Value of the signature header, expected `sha256=<64 hex>`. */
	signature: string | string[] | undefined;
	/** Value of the timestamp header: Unix seconds. */
	timestamp: string | string[] | undefined;
	/** Our clock, in milliseconds (defaults to the package's clock, shared/clock.ts). */
	nowMs?: number;
	toleranceSeconds?: number;
}

type SignatureResult =
	| { ok: true; timestamp: number; digest: string }
	| { ok: false; reason: SignatureFailure };

type SignatureFailure =
	| 'no secret configured'
	| 'raw body unavailable'
	| 'missing signature header'
	| 'missing timestamp header'
	| 'malformed signature header'
	| 'malformed timestamp header'
	| 'stale timestamp'
	| 'timestamp in the future'
	| 'signature mismatch'
	| 'verification error';

const SIGNATURE_FORMAT = /^sha256=([0-9a-fA-F]{64})$/;
const TIMESTAMP_FORMAT = /^[0-9]{1,12}$/;

function single(value: string | string[] | undefined): string | undefined {
	if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined;
	return value;
}

function toBuffer(body: Buffer | string): Buffer {
	return Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
}

/**
 * Verifies a signed delivery. Checks, in order: configuration, presence and shape of both headers, the
 * timestamp window (both directions), then the HMAC over the timestamp exactly as received, a dot and the
 * raw bytes. Returns the reason of the first failure; never throws.
 */
export function verifySignature(check: SignatureCheck): SignatureResult {
	try {
		if (typeof check.secret !== 'string' || check.secret === '')
			return { ok: false, reason: 'no secret configured' };
		if (check.rawBody === undefined || check.rawBody === null)
			return { ok: false, reason: 'raw body unavailable' };
		const signature = single(check.signature);
		const timestamp = single(check.timestamp);
		if (check.signature === undefined || check.signature === '')
			return { ok: false, reason: 'missing signature header' };
		if (check.timestamp === undefined || check.timestamp === '')
			return { ok: false, reason: 'missing timestamp header' };
		const sig = signature === undefined ? null : SIGNATURE_FORMAT.exec(signature.trim());
		if (!sig) return { ok: false, reason: 'malformed signature header' };
		const ts = timestamp?.trim();
		if (ts === undefined || !TIMESTAMP_FORMAT.test(ts))
			return { ok: false, reason: 'malformed timestamp header' };

		const seconds = Number(ts);
		const nowSeconds = (check.nowMs ?? clock.now()) / 1000;
		const tolerance = check.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
		if (nowSeconds - seconds > tolerance) return { ok: false, reason: 'stale timestamp' };
		if (seconds - nowSeconds > tolerance) return { ok: false, reason: 'timestamp in the future' };

		const expected = createHmac('sha256', check.secret)
			.update(`${ts}.`, 'utf8')
			.update(toBuffer(check.rawBody))
			.digest();
		const received = Buffer.from(sig[1], 'hex');
		if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
			return { ok: false, reason: 'signature mismatch' };
		}
		return { ok: true, timestamp: seconds, digest: sig[1].toLowerCase() };
	} catch {
		return { ok: false, reason: 'verification error' };
	}
}

/** Constant-time equality of two strings of any length (both are hashed first, so lengths do not leak). */
export function safeEqual(a: unknown, b: unknown): boolean {
	if (typeof a !== 'string' || typeof b !== 'string' || a === '' || b === '') return false;
	const ha = createHash('sha256').update(a, 'utf8').digest();
	const hb = createHash('sha256').update(b, 'utf8').digest();
	return timingSafeEqual(ha, hb);
}

export function sha256Hex(value: string): string {
	return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A random URL-safe token (256 bits). */
export function randomToken(): string {
	return randomBytes(32).toString('base64url');
}
