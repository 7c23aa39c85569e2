-- A key's calls counted in its total and its day (KEYS: total, daily hash; ARGV: today, oldest
-- day kept, hash lifetime ms, calls, negative to give calls back).
return countKeyCalls(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
