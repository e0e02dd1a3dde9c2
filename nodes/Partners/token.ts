import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import {
	exchange,
	failureIn,
	HttpFailure,
	isRedirect,
	parseBody,
	type Sender,
} from '../shared/http';
import { clock } from '../shared/clock';
import { trimEnd } from '../shared/text';

/**
 * The Partners token request (client credentials, partners service, POST /v1/auth/token), made by the
 * credential's `preAuthentication` through the package's one request primitive (shared/http.ts): it never
 * follows a redirect (n8n's helper would carry the client secret to wherever a 307 points), it has a
 * wall-clock deadline and a size cap, and an answer without an access token stops here instead of being
 * stored empty (the next request would go out as `Authorization: Bearer ` and be refused). Every failure is
 * an HttpFailure marked `token`, which the client reports as the token request's (shared/transport.ts). The
 * credential's Test button fetches its token the same way (methods/credentialTest.ts).
 */

const TOKEN_PATH = '/v1/auth/token';
/** The token request may take this long at most. */
const TOKEN_TIMEOUT_MS = 30_000;
/** A token answer is a few hundred bytes. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;
const REQUEST = `POST ${TOKEN_PATH}`;

function fromTokenRequest(failure: HttpFailure): HttpFailure {
	failure.details.token = true;
	failure.details.request = REQUEST;
	return failure;
}

/** The headers that carry the Partners credential (its `authenticate`): the token, and the sandbox switch. */
export function partnersAuthHeaders(
	credentials: ICredentialDataDecryptedObject,
): Record<string, string> {
	return {
		Authorization: `Bearer ${String(credentials.accessToken ?? '')}`,
		'F-Sandbox-Mode': credentials.sandbox ? 'true' : 'false',
	};
}

/**
 * Fetches a new access token for `credentials` with `send` (n8n's HTTP helper), at the latest by `deadline`;
 * throws an HttpFailure (marked `token`) when there is none.
 */
export async function fetchToken(
	send: Sender,
	credentials: ICredentialDataDecryptedObject,
	deadline = clock.now() + TOKEN_TIMEOUT_MS,
): Promise<string> {
	const base = trimEnd(String(credentials.baseUrl ?? '').trim(), '/');
	let answer;
	try {
		answer = await exchange(
			send,
			{
				method: 'POST',
				url: `${base}${TOKEN_PATH}`,
				headers: {
					'F-Sandbox-Mode': credentials.sandbox ? 'true' : 'false',
					Accept: 'application/json',
				},
				body: {
					grant_type: 'client_credentials',
					client_id: credentials.clientId,
					client_secret: credentials.clientSecret,
				},
				json: true,
			},
			{
				deadline,
				maxBytes: MAX_TOKEN_ANSWER_BYTES,
				request: REQUEST,
			},
		);
	} catch (error) {
		throw fromTokenRequest(
			failureIn(error) ?? new HttpFailure('network', 'the token request failed', {}),
		);
	}
	if (isRedirect(answer.status)) {
		let location = answer.headers.location ?? '';
		try {
			location = new URL(location, `${base}${TOKEN_PATH}`).href;
		} catch {
			// keep it as it came
		}
		throw fromTokenRequest(
			new HttpFailure('redirect', 'the token request was redirected', {
				status: answer.status,
				location,
			}),
		);
	}
	const body = parseBody(answer.body);
	if (answer.status >= 400)
		throw fromTokenRequest(
			new HttpFailure('status', 'the token request was refused', {
				status: answer.status,
				headers: answer.headers,
				body,
			}),
		);
	const token =
		body && typeof body === 'object'
			? (body as { access_token?: unknown }).access_token
			: undefined;
	if (typeof token !== 'string' || token.trim() === '') {
		throw fromTokenRequest(
			new HttpFailure('malformed', 'the token answer has no access token (access_token)', {
				status: answer.status,
				problem: 'no-access-token',
			}),
		);
	}
	return token;
}
