import type { RouterContext } from '../shared/router';
import type { RequestContext, ServiceDefinition } from '../shared/transport';
import { bodyMessage } from '../shared/failures';
import { ServiceClient } from '../shared/transport';
import { faultLine, faultOf, readAnswer, type AuthorizationAnswer } from './domain/answer';
import { authorizationRequest, MAX_ANSWER_BYTES, SOAP_HEADERS } from './domain/service';

/**
 * The SRI's public web service for authorizations, told to the package's one client (shared/transport.ts):
 * no credential, an address per request (the key's environment, or the Service Address), SOAP faults and the
 * maintenance pages of the SRI in words a bookkeeper can act on. Asking about a key is a query: sending it
 * twice does nothing twice, so it is re-sent after a 5xx, a 429 or a broken connection, within Request Timeout.
 */

/** The page title of an HTML answer (the SRI's maintenance page, a proxy's error page), if any. */
function pageTitle(text: string): string | undefined {
	const m = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text.slice(0, 4096));
	return m ? m[1].replace(/\s+/g, ' ').trim() || undefined : undefined;
}

const isPage = (text: string) => /^\s*(<!doctype html|<html[\s>])/i.test(text.slice(0, 512));

const sriService: ServiceDefinition = {
	name: 'SRI',
	addressLabel:
		'Options → Service Address (empty: the SRI’s own address for the key’s environment)',
	secretFields: [],
	describeError(status, body) {
		const text = typeof body === 'string' ? body : '';
		const fault = text ? faultOf(text) : undefined;
		if (fault)
			return {
				message: `SRI answered with a SOAP fault (HTTP ${status}): ${faultLine(fault)}`,
				description:
					'The SRI’s service failed while answering. The question was asked again within Request Timeout; try again later.',
				said: fault.faultstring,
			};
		if (text && isPage(text)) {
			const title = pageTitle(text);
			return {
				message: `SRI is not available (HTTP ${status}${title ? `: ${title}` : ''})`,
				description:
					'The SRI answered with a web page instead of a SOAP answer: its service is usually down for maintenance. The question was asked again within Request Timeout; try again later.',
				said: title,
			};
		}
		const said = bodyMessage(body);
		return {
			message: `SRI answered HTTP ${status}${said ? `: ${said}` : ''}`,
			description:
				status >= 500
					? 'The SRI’s service had a problem. The question was asked again within Request Timeout; try again later.'
					: 'Check Options → Service Address: it must be the address of the SRI’s AutorizacionComprobantesOffline service, or empty.',
		};
	},
};

export interface SriContext extends RouterContext {
	api: ServiceClient;
}

/** One client per execution; `timeoutMs` is Options → Request Timeout. */
export function sriContext(ctx: RequestContext, timeoutMs: number): SriContext {
	return {
		api: new ServiceClient(ctx, sriService, {
			timeoutMs,
			timeoutOption: 'Options → Request Timeout',
		}),
	};
}

/** Asks the SRI at `url` about `key` (`autorizacionComprobante`): its answer, read. */
export async function askAuthorization(
	ctx: SriContext,
	url: string,
	key: string,
	itemIndex: number,
): Promise<AuthorizationAnswer> {
	return await ctx.api.postText(url, itemIndex, {
		body: authorizationRequest(key),
		headers: { ...SOAP_HEADERS },
		maxBytes: MAX_ANSWER_BYTES,
		repeatable: true,
		read: (answer) => readAnswer(answer.body),
	});
}
