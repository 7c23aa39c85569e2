import {
  checkDestination,
  checkUrlShape,
  guardedLookup,
  isAllowedAddress,
} from '../../subgraphs/webhooks/src/domain/destination-policy';

const production = { requireHttps: true, allowLoopback: false };
const development = { requireHttps: false, allowLoopback: true };

describe('webhook destination policy (SSRF)', () => {
  it.each([
    ['127.0.0.1'],
    ['::1'],
    ['10.1.2.3'],
    ['172.16.0.1'],
    ['192.168.0.1'],
    ['169.254.169.254'],
    ['100.64.0.1'],
    ['0.0.0.0'],
    ['255.255.255.255'],
    ['224.0.0.1'],
    ['fd00:ec2::254'],
    ['fe80::1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:10.0.0.1'],
    ['2001:db8::1'],
    ['192.0.2.1'],
    ['::'],
  ])('when the address is %s, then it is refused', (address) => {
    expect(isAllowedAddress(address, production)).toBe(false);
  });

  it.each([['93.184.216.34'], ['8.8.8.8'], ['2606:4700:4700::1111']])(
    'when the address is the public %s, then it is allowed',
    (address) => {
      expect(isAllowedAddress(address, production)).toBe(true);
    },
  );

  it.each([['::7f00:1'], ['::a00:1'], ['::808:808'], ['::127.0.0.1']])(
    'when the address is the IPv4-compatible IPv6 %s (::/96), then it is refused',
    (address) => {
      expect(isAllowedAddress(address, production)).toBe(false);
      expect(isAllowedAddress(address, development)).toBe(false);
    },
  );

  it('when the URL is https://[::127.0.0.1]/ (which URL parsing turns into [::7f00:1]), then it is refused, while a global IPv6 URL passes', () => {
    expect(() => checkUrlShape('https://[::127.0.0.1]/hook', production)).toThrow(
      expect.objectContaining({ reason: 'forbidden_address' }),
    );
    expect(() => checkUrlShape('https://[::7f00:1]/hook', development)).toThrow(
      expect.objectContaining({ reason: 'forbidden_address' }),
    );
    expect(checkUrlShape('https://[2606:4700:4700::1111]/hook', production).hostname).toBe(
      '[2606:4700:4700::1111]',
    );
    expect(isAllowedAddress('2001:4860:4860::8888', production)).toBe(true);
  });

  it('when the loopback development setting is on, then loopback (and only loopback) is also allowed', () => {
    expect(isAllowedAddress('127.0.0.1', development)).toBe(true);
    expect(isAllowedAddress('::1', development)).toBe(true);
    expect(isAllowedAddress('10.0.0.1', development)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', development)).toBe(false);
  });

  it('when in production, then plain http is refused but https is accepted', () => {
    expect(() => checkUrlShape('http://example.com/hook', production)).toThrow(
      expect.objectContaining({ reason: 'https_required' }),
    );
    expect(checkUrlShape('https://example.com/hook', production).hostname).toBe('example.com');
  });

  it('when the URL carries credentials, port 0 or another scheme, then it is refused', () => {
    expect(() => checkUrlShape('https://u:p@example.com/', production)).toThrow(
      expect.objectContaining({ reason: 'credentials_in_url' }),
    );
    expect(() => checkUrlShape('https://8.8.8.8:0/hook', production)).toThrow(
      expect.objectContaining({ reason: 'invalid_port' }),
    );
    expect(() => checkUrlShape('file:///etc/passwd', production)).toThrow(
      expect.objectContaining({ reason: 'not_absolute_http_url' }),
    );
    expect(() => checkUrlShape('example.com/hook', production)).toThrow(
      expect.objectContaining({ reason: 'not_absolute_http_url' }),
    );
  });

  it('when the URL is longer than 2048 characters once encoded, then it is refused with a reason of its own', () => {
    // 1,030 characters as typed, 6,029 once each é is percent-encoded (what is stored and sent).
    const typed = `https://example.com/${'é'.repeat(1_010)}`;
    expect(typed.length).toBeLessThanOrEqual(2048);
    expect(() => checkUrlShape(typed, production)).toThrow(
      expect.objectContaining({ reason: 'url_too_long' }),
    );
    const longest = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
    expect(checkUrlShape(longest, production).href).toHaveLength(2048);
  });

  it('when a host name resolves to any forbidden address, then it is refused after resolution', async () => {
    const rebinding = async () => ['93.184.216.34', '10.0.0.1'];
    const metadata = async () => ['169.254.169.254'];
    const publicOnly = async () => ['93.184.216.34'];
    const nothing = async () => {
      throw new Error('ENOTFOUND');
    };

    await expect(
      checkDestination('https://evil.example/', production, rebinding),
    ).rejects.toMatchObject({ reason: 'forbidden_address' });
    await expect(
      checkDestination('https://metadata.example/', production, metadata),
    ).rejects.toMatchObject({ reason: 'forbidden_address' });
    await expect(
      checkDestination('https://nowhere.example/', production, nothing),
    ).rejects.toMatchObject({ reason: 'unresolvable_host' });
    await expect(
      checkDestination('https://ok.example/hook', production, publicOnly),
    ).resolves.toBeInstanceOf(URL);
  });

  it('when a socket looks up localhost at delivery time, then the guarded lookup refuses it', async () => {
    const lookup = guardedLookup(production);
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('localhost', { all: true }, (e) => resolve(e)),
    );
    expect(error).toMatchObject({ code: 'EWEBHOOKFORBIDDEN' });
    const allowed = await new Promise<unknown>((resolve) =>
      guardedLookup(development)('localhost', {}, (e, address) => resolve(e ?? address)),
    );
    expect(allowed).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
