import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import { Checker, isMissing, parseJsonParameter } from '../../../shared/validate';
import { normalizeRecord } from '../../domain/names';
import { redact } from '../../domain/secrets';
import type { ExtractionContext } from '../../transport';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['taxpayer'], operation: ['register'] } }, [
	{
		displayName: 'Taxpayer (JSON)',
		name: 'taxpayer',
		type: 'json',
		default: '{}',
		required: true,
		description: 'The taxpayer record, sent as the JSON body as it is (the service does not publish its fields). Put passwords and key material in Secret Fields instead.',
	},
	{
		displayName: 'Secret Fields',
		name: 'secretFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Secret Field',
		default: {},
		description: 'Passwords and key material, added to the body at the given path; they never appear in the output or in errors',
		options: [
			{
				displayName: 'Secret Field',
				name: 'field',
				values: [
					{
						displayName: 'Path',
						name: 'path',
						type: 'string',
						default: '',
						placeholder: 'e.g. credentials.password',
						description: 'Where in the body the value goes, with dots for nested objects',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						typeOptions: { password: true },
						default: '',
					},
				],
			},
		],
	},
]);

const SAFE_SEGMENT = /^[A-Za-z_][\w-]*$/;

/** POST /taxpayers (Ecuador side): JSON body passed through, secrets merged in from password fields. */
export async function execute(this: IExecuteFunctions, ctx: ExtractionContext, i: number): Promise<OperationResult> {
	const node = this.getNode();
	const check = new Checker();
	const parsed = parseJsonParameter(node, i, 'taxpayer', this.getNodeParameter('taxpayer', i, '{}'));
	const body: IDataObject = {};
	if (check.object('taxpayer', parsed, { required: true })) Object.assign(body, structuredClone(parsed));
	else if (parsed === undefined) check.fail('taxpayer', 'is required');

	const secrets: string[] = [];
	const fields = (this.getNodeParameter('secretFields.field', i, []) as IDataObject[]) ?? [];
	fields.forEach((f, n) => {
		const path = String(f.path ?? '').trim();
		const value = String(f.value ?? '');
		const segments = path.split('.');
		if (!path || !segments.every((s) => SAFE_SEGMENT.test(s))) {
			check.fail(`secretFields[${n}].path`, path ? `${JSON.stringify(path)} is not a field path (names separated by dots)` : 'is required');
			return;
		}
		if (isMissing(value)) {
			check.fail(`secretFields[${n}].value`, 'is required');
			return;
		}
		secrets.push(value);
		let target = body;
		for (const segment of segments.slice(0, -1)) {
			if (!target[segment] || typeof target[segment] !== 'object' || Array.isArray(target[segment])) target[segment] = {};
			target = target[segment] as IDataObject;
		}
		target[segments[segments.length - 1]] = value;
	});
	if (Object.keys(body).length === 0) check.fail('taxpayer', 'give at least one field');
	check.throwIfFailed(node, i);

	const answer = await ctx.api.request({ method: 'POST', path: '/taxpayers', body, idempotent: false }, i, { secrets });
	return redact(normalizeRecord(answer ?? {}), secrets) as IDataObject;
}
