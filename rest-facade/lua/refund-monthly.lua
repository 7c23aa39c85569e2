-- Takes back one quota request, unless the counter is gone (then there is nothing to take back).
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end
return -1
