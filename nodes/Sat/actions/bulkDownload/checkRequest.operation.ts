import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { itemError, upstreamError, upstreamProblem } from '../../../shared/errors';
import { itemParameter } from '../../../shared/parameters';
import type { OperationResult, ReadModule } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { Checker } from '../../../shared/validate';
import { ACCEPTED, codeWords, requestState } from '../../domain/bulk/codes';
import { verifyQuestion } from '../../domain/bulk/service';
import { bulkOptions, cfdiKindField, parallelOptionOf } from './options';
import { bulkSession } from './session';
import { UUID } from '../../domain/expression';

export const kind: ReadModule<PublicServiceContext>['kind'] = 'read';

// Not `overlaps`: an item waiting for its place in the router's gate would carry a token taken before the wait;
// each item takes its token when it is about to send.

const options = bulkOptions('requests', 2, 60);

export const parallelOption = parallelOptionOf(options);

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['bulkDownload'], operation: ['checkRequest'] } },
	[
		cfdiKindField,
		{
			displayName: 'Request ID',
			name: 'requestId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 4e80345d-917f-40bb-a98f-4a73939343c5',
			description:
				'The IdSolicitud Request gave. Empty: the input item’s request_id (as Request outputs it).',
		},
		options,
	],
);

/**
 * The request id of item `i`: the field, else the item's `request_id`; checked before anything is sent.
 */
function requestIdOf(this: IExecuteFunctions, i: number): string {
	const given = String(itemParameter.call(this, 'requestId', i, '') ?? '').trim();
	const json = this.getInputData()[i]?.json ?? {};
	const id = given || String(json.request_id ?? '').trim();
	const check = new Checker();
	const upstream = upstreamError(json);
	if (!id && upstream) check.fail('Request ID', upstreamProblem(upstream));
	else if (!id)
		check.fail('Request ID', 'is missing: give it, or connect Request (its output has request_id)');
	else if (!UUID.test(id))
		check.fail(
			'Request ID',
			`${JSON.stringify(id)} is not a request id (a UUID, as Request gives)`,
		);
	check.throwIfFailed(this.getNode(), i, 'Nothing was sent to the SAT.');
	return id;
}

/**
 * Asks the SAT about a request: `state` in words (accepted, in_process, finished, error, rejected, expired) and
 * the SAT's numbers, `cfdi_count`, `package_ids`, and booleans for an IF node or a Wait loop: `finished` (the
 * packages are ready), `still_processing` (ask again later), `failed` (it will not finish: `reason` says why),
 * `no_cfdis` (the SAT found nothing for the period). A read: asked again once after a failure.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
	i: number,
): Promise<OperationResult> {
	const requestId = requestIdOf.call(this, i);
	const session = await bulkSession.call(this, ctx, i);
	const addresses = session.addresses(i);
	const answer = await session.call(addresses, i, (token) =>
		verifyQuestion(session.efirma, requestId, addresses.verify, token),
	);
	if (answer.code !== ACCEPTED) {
		const words = codeWords(answer.code);
		throw itemError(
			this.getNode(),
			i,
			`Request ${requestId}: the SAT answered ${answer.code} (${answer.message || 'no message'}): ${words.meaning}`,
			words.fix,
		);
	}
	const state = requestState(answer.state);
	const noCfdis =
		answer.stateCode === '5004' || (state === 'finished' && answer.packageIds.length === 0);
	const failed = (state === 'error' || state === 'rejected' || state === 'expired') && !noCfdis;
	const out: IDataObject = {
		request_id: requestId,
		state,
		state_code: Number(answer.state) || 0,
		request_status_code: answer.stateCode || null,
		status_code: answer.code,
		message: answer.message,
		cfdi_count: answer.cfdiCount,
		package_ids: answer.packageIds,
		package_count: answer.packageIds.length,
		finished: state === 'finished' && answer.packageIds.length > 0,
		still_processing: state === 'accepted' || state === 'in_process' || state === 'unknown',
		failed,
		no_cfdis: noCfdis,
		cfdi_kind: this.getNodeParameter('cfdiKind', i, 'cfdi'),
	};
	if (state === 'expired')
		out.reason =
			'The request expired before its packages were downloaded: make a new request for the period.';
	else if (failed || noCfdis) {
		const words = codeWords(answer.stateCode);
		out.reason = noCfdis
			? 'The SAT found no CFDIs for the period and filters asked.'
			: `${words.meaning}. ${words.fix}`;
	}
	return out;
}
