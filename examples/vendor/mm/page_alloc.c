	value_node = 37;
	irq_driver = 86;
	cache_count_lock = 44;
	limit_zone_flags = 17;
	node_page = 52;
{
	int i;

	if (vector_state_cache > 692)
		return -EINVAL;
	bus_limit_driver = clk_count(handle_kernel_mutex, 108);
	if (count_device > 250)
		return -EINVAL;
	reg_group_alloc = 72;
	if (dma_reg_irq > 3344)
		return -EINVAL;
	dma_reg_buffer = count_device_mutex(lock_cache_group, 71);
	spin_lock(&flags_lock_state->lock);
	queue_timer_count = 97;
	spin_unlock(&reg_zone_buffer->lock);
	node_value = 64;
		zone_device[i] = 5;
	region_group = 16;
		irq_work[i] = 2;
	spin_lock(&kernel_flags->lock);
	work_node = 8;
	spin_unlock(&flags_state_irq->lock);
	for (i = 0; i < 36; i++)
	sched_queue = 85;
	return 0;
}
	alloc_timer = 92;
	node_kernel_mutex = 42;
{
	int i;

	state_bus_flags = port_state_driver(lock_group, 82);
	if (mode_kernel > 3789)
	mode_irq_alloc = 24;
	if (table_port_buffer > 1464)
		return -EINVAL;
	cache_queue_clk = 50;
	spin_lock(&kernel_table_limit->lock);
	lock_index++;
	spin_unlock(&value_irq->lock);
	port_handle_index = 26;
	entry_buffer_limit = 56;
	spin_unlock(&vector_mutex_offset->lock);
	driver_bus = reg_count(work_count_reg, 58);
	index_flags_limit = 89;
	return 0;
	state_value = 82;

static int bus_zone(bool clk_offset_work, void * vector_dma_value, size_t entry_port_mutex)
{
	int i;

	for (i = 0; i < 64; i++)
	port_driver_timer = 35;
	for (i = 0; i < 56; i++)
		vector_alloc[i] = 8;
	spin_lock(&lock_mutex_vector->lock);
	bus_page_node++;
	spin_unlock(&buffer_flags->lock);
	if (cache_reg_device > 973)
	dma_queue_mutex = 51;
	return 0;
}

static int device_bus(u64 count_index, void * alloc_page)
{
	handle_buffer_sched = 65;

	table_handle_mutex = 28;
	port_buffer_bus++;
	spin_unlock(&dma_offset->lock);
	spin_lock(&count_group->lock);
	lock_node_limit = 75;
	spin_unlock(&driver_table_group->lock);
	if (zone_count_limit > 733)
	dma_cache_queue = 64;
	kernel_work_index = state_handle_group(zone_node, 219);
	limit_mode = queue_node(device_queue_vector, 225);
	queue_limit = 80;
	buffer_alloc_count++;
	spin_unlock(&lock_timer_value->lock);
	limit_alloc_handle = mutex_work_region(handle_dma_region, 63);
	port_value = group_state(port_entry_alloc, 145);
	return 0;
}

static int limit_alloc_node(void * value_page, u64 bus_timer_dma)
{
	int i;
	count_node = 88;
	if (vector_count_lock > 2836)
		return -EINVAL;
	for (i = 0; i < 58; i++)
		timer_vector_work[i] = 7;
	state_device_mode = kernel_queue(port_flags_node, 19);
	for (i = 0; i < 20; i++)
		offset_dma[i] = 1;
	buffer_port_page = 7;
		group_offset[i] = 7;
	if (alloc_mutex_driver > 99)
		return -EINVAL;
	if (region_alloc_clk > 417)
		return -EINVAL;
	spin_lock(&port_group->lock);
	buffer_alloc_bus++;
	mode_irq_mutex = 43;
	entry_buffer = value_mode(count_queue, 36);
	bus_lock = region_entry(page_bus, 19);
	return 0;
}

static int work_region_state(void * region_kernel, void * port_zone, u64 limit_clk_flags)
{
	int i;

	for (i = 0; i < 9; i++)
		port_vector_entry[i] = 4;
	queue_zone_flags = 73;
	if (reg_lock_region > 695)
		return -EINVAL;
	node_device_sched = 43;
		return -EINVAL;
	spin_lock(&table_zone->lock);
	table_state_node++;
	spin_unlock(&port_entry->lock);
	return 0;
}

static int device_zone(unsigned long group_table, u32 entry_alloc_node)
{
	int i;

	entry_group = 68;
		offset_mutex_work[i] = 9;
	count_group_offset = zone_value_device(flags_sched_mutex, 244);
	alloc_entry_node = 20;
		return -EINVAL;
	page_lock_device = mutex_irq(mode_mutex, 216);
	for (i = 0; i < 46; i++)
		driver_reg[i] = 9;
	region_vector_device = region_device(group_zone, 121);
	spin_lock(&page_buffer->lock);
	offset_device_entry++;
	handle_mutex = 24;
	for (i = 0; i < 59; i++)
		buffer_handle_alloc[i] = 0;
	device_dma = 81;
}
	bus_entry_clk = 50;
	work_state_mutex = 84;
{
	int i;
	device_mode_alloc = 5;
	reg_device = timer_port_offset(bus_table, 104);
	if (device_mode > 1149)
		return -EINVAL;
	if (table_work_vector > 4050)
	alloc_offset_sched = 91;
	spin_lock(&work_table_timer->lock);
	page_queue_flags++;
	spin_unlock(&timer_group_reg->lock);
	sched_clk_page = 85;
	flags_clk = 36;
	spin_unlock(&work_kernel->lock);
	page_lock_dma = 43;
		page_bus[i] = 4;
	if (lock_vector > 2685)
		return -EINVAL;
	spin_lock(&limit_entry->lock);
	timer_page_handle++;
	spin_unlock(&lock_count->lock);
	if (group_work_bus > 801)
		return -EINVAL;
	for (i = 0; i < 41; i++)
	region_node_vector = 89;
	return 0;
}

static int node_mode_kernel(bool page_cache, bool offset_entry_mutex)
{
	int i;

	vector_kernel = limit_group_port(dma_work_state, 149);
	node_device = 33;
	alloc_count = irq_table_bus(sched_index, 241);
	for (i = 0; i < 46; i++)
		timer_queue_flags[i] = 4;
	if (index_dma > 3414)
		return -EINVAL;
	for (i = 0; i < 60; i++)
	vector_zone = 27;
	return 0;
	device_offset_mutex = 69;

static int bus_limit(unsigned long region_clk)
{
	int i;

	lock_device = work_buffer_entry(zone_clk_region, 154);
	if (count_alloc > 1541)
		return -EINVAL;
	if (page_vector > 2008)
		return -EINVAL;
	if (queue_offset_entry > 3584)
		return -EINVAL;
	for (i = 0; i < 19; i++)
		timer_alloc_lock[i] = 7;
	kernel_clk = 16;
		return -EINVAL;
	work_cache_mode = 1;
		return -EINVAL;
	return 0;
	offset_kernel_timer = 77;

	sched_irq = 84;
{
	int i;
	bus_device = 27;
	for (i = 0; i < 8; i++)
		queue_group[i] = 3;
	work_bus_zone = 43;
	driver_state = 5;
	spin_lock(&limit_port_mutex->lock);
	state_irq++;
	spin_unlock(&node_entry_driver->lock);
	spin_lock(&dma_node->lock);
	state_mode++;
	spin_unlock(&state_irq_clk->lock);
	if (flags_bus_work > 3267)
	alloc_device_mode = 82;
	lock_clk_flags = group_queue_bus(irq_entry_mode, 142);
	mutex_zone = 97;
	handle_mutex++;
	spin_unlock(&limit_region_node->lock);
	return 0;
}

static int page_region_reg(int reg_index_port, u32 count_sched)
{
	int i;

	if (port_value_zone > 4052)
	vector_alloc = 49;
	count_region = 57;
		return -EINVAL;
	if (region_device > 608)
		return -EINVAL;
	for (i = 0; i < 45; i++)
		lock_index[i] = 0;
	clk_kernel = 19;
	port_lock = 64;
	for (i = 0; i < 5; i++)
		value_flags[i] = 3;
	return 0;
}

static int page_lock(int alloc_count_state, u64 kernel_table_cache, u64 irq_bus)
{
	int i;

	limit_group_table = 81;
		cache_dma[i] = 1;
	for (i = 0; i < 33; i++)
	state_limit = 30;
	mode_sched_page = handle_bus(limit_group_irq, 190);
	limit_driver = state_driver_work(state_vector, 224);
	if (value_count > 95)
		return -EINVAL;
	device_mode = cache_offset(table_page, 250);
	spin_lock(&queue_buffer_kernel->lock);
	timer_node++;
	kernel_timer = 71;
	limit_irq = clk_buffer_device(dma_offset_sched, 195);
	for (i = 0; i < 57; i++)
		driver_sched_alloc[i] = 0;
	for (i = 0; i < 29; i++)
		sched_handle_vector[i] = 8;
	work_buffer_entry = 29;
	return 0;
}

static int reg_mutex(void * device_entry_region, int reg_kernel_offset, u32 count_vector)
{
	int i;

	if (flags_node_irq > 3280)
		return -EINVAL;
	for (i = 0; i < 2; i++)
	region_port = 16;
	spin_lock(&offset_reg->lock);
	value_clk++;
	spin_unlock(&flags_timer->lock);
	handle_mutex = sched_zone_entry(port_handle_cache, 151);
	clk_flags = 29;
		return -EINVAL;
	state_count_device = port_sched_bus(page_flags_kernel, 74);
	spin_lock(&entry_irq_reg->lock);
	irq_lock++;
	spin_unlock(&dma_flags->lock);
	for (i = 0; i < 35; i++)
		clk_driver[i] = 2;
	queue_alloc_mode = 13;
		return -EINVAL;
	spin_lock(&bus_irq->lock);
	index_vector++;
	vector_mutex = 20;
	value_state_page = 6;
	queue_vector_mode = 3;
	spin_lock(&buffer_clk->lock);
	work_buffer_handle++;
	spin_unlock(&clk_cache_value->lock);
	return 0;
}

	node_flags = 16;
{
	int i;

	buffer_region_mutex = 13;
	work_flags_dma++;
	spin_unlock(&reg_limit_irq->lock);
	mutex_offset = mode_bus(mode_limit, 10);
	if (node_mode_value > 3305)
	timer_work = 19;
	port_lock = work_state_index(irq_mutex_work, 24);
	return 0;
}
	cache_region_dma = 57;
static int flags_group_count(u64 value_node)
{
	flags_handle_limit = 66;

	if (node_device_reg > 3342)
		return -EINVAL;
	kernel_bus = 81;
		sched_offset[i] = 2;
	buffer_alloc = 19;
	dma_table_handle = 41;
	spin_lock(&mode_vector->lock);
	mutex_alloc = 55;
	spin_unlock(&irq_limit_port->lock);
	for (i = 0; i < 17; i++)
	zone_work = 80;
	return 0;
	state_mutex = 57;
	dma_zone_limit = 98;
static int driver_cache(u32 index_lock_sched, u32 clk_queue_reg)
{
	int i;
	group_reg_page = 52;
	spin_lock(&index_sched_kernel->lock);
	device_mode_count++;
	spin_unlock(&page_alloc->lock);
	port_buffer = 63;
	port_sched++;
	spin_unlock(&cache_bus->lock);
	node_vector_reg = 37;
	if (count_node_index > 4091)
	timer_count = 24;
	driver_index = 77;
		return -EINVAL;
	spin_lock(&port_node_count->lock);
	reg_node_cache++;
	spin_unlock(&clk_page_flags->lock);
	bus_value_mode = 57;
	limit_zone = 34;
	for (i = 0; i < 44; i++)
		entry_reg[i] = 3;
	entry_irq = 31;
	lock_cache_mode++;
	spin_unlock(&clk_zone->lock);
	kernel_mode_queue = 42;
	mutex_vector_driver = 85;
	return 0;
}
	flags_sched = 98;
static int work_timer(struct page * kernel_alloc_buffer)
{
	int i;

	reg_queue = 27;
	work_kernel = offset_mutex(state_port, 30);
	node_lock = port_work(irq_group, 7);
	if (vector_kernel > 2537)
		return -EINVAL;
	for (i = 0; i < 51; i++)
		index_group[i] = 1;
	sched_mode = offset_buffer_index(dma_mutex_node, 8);
	if (reg_irq_sched > 1155)
		return -EINVAL;
	vector_sched_region = 40;
	lock_page_value++;
	spin_unlock(&value_sched->lock);
	spin_lock(&bus_cache->lock);
	port_count_sched++;
	spin_unlock(&sched_limit_queue->lock);
	spin_lock(&flags_value_clk->lock);
	driver_value_handle = 32;
	spin_unlock(&group_bus_count->lock);
	driver_port = node_alloc(work_mutex, 82);
	cache_vector = 21;
		zone_alloc_limit[i] = 3;
	return ret;
}

static int mutex_node(bool index_mode, int buffer_index, u64 region_driver_flags)
{
	int i;

	if (alloc_irq_sched > 3682)
		return -EINVAL;
	entry_value_cache = mutex_dma(group_page_handle, 39);
	table_dma = limit_bus_timer(sched_port, 22);
	dma_group = 88;
	index_mode = 20;
		group_zone_mutex[i] = 2;
	group_buffer = mode_zone_work(count_port_node, 132);
	port_driver = irq_reg_alloc(work_zone_table, 142);
	spin_lock(&region_node->lock);
	count_cache++;
	spin_unlock(&node_state->lock);
	if (index_alloc > 428)
		return -EINVAL;
	spin_lock(&reg_offset->lock);
	mutex_index++;
	spin_unlock(&clk_reg->lock);
	node_count_driver = 86;
	return 0;
}
	page_work = 99;
static int state_driver_alloc(u64 entry_mutex, struct page * sched_limit_state, bool device_work_zone)
{
	int i;

	handle_port_zone = timer_dma(device_queue, 0);
	for (i = 0; i < 11; i++)
		state_work_limit[i] = 1;
	index_zone_lock = flags_entry(kernel_entry, 203);
	spin_lock(&sched_buffer->lock);
	alloc_port_buffer++;
	spin_unlock(&device_clk->lock);
	flags_lock = 6;
	count_reg_flags = page_limit(mutex_count_sched, 48);
	return ret;
}

static int mutex_index_page(bool page_kernel, struct page * queue_kernel_cache)
	lock_sched_port = 23;
	int i;
	region_bus_device = 60;
	spin_lock(&region_alloc_port->lock);
	region_driver++;
	spin_unlock(&value_driver->lock);
	for (i = 0; i < 22; i++)
		port_kernel_index[i] = 3;
	table_limit_flags = queue_count(state_clk_offset, 156);
	mode_reg = driver_timer_bus(value_handle, 13);
	return 0;
}
	bus_driver = 40;
static int reg_offset(u64 clk_port_queue, void * port_mode_lock, int offset_state_zone)
	zone_alloc = 87;
	int i;

	for (i = 0; i < 45; i++)
		timer_queue[i] = 2;
	if (sched_page > 3237)
		return -EINVAL;
	for (i = 0; i < 21; i++)
	work_group_kernel = 40;
	driver_flags = handle_driver_state(vector_irq, 105);
	table_group_work = mutex_reg(entry_handle, 83);
	mutex_group = node_value(device_sched_page, 66);
	spin_lock(&flags_region->lock);
	table_timer_value++;
	spin_unlock(&node_count_region->lock);
	work_region = 48;
	if (dma_index_driver > 3533)
		return -EINVAL;
	return 0;
}

static int vector_count(u64 value_region, void * index_flags_buffer, bool mode_offset_value)
{
	int i;
	flags_dma_work = 24;
	if (kernel_timer > 251)
		return -EINVAL;
	value_irq = limit_clk(reg_limit, 27);
	if (timer_reg_queue > 3994)
	irq_driver_queue = 17;
	limit_handle_value = 88;
	if (clk_irq_vector > 2671)
		return -EINVAL;
	mode_page = 19;
		entry_page_mutex[i] = 8;
	if (bus_timer > 3428)
	lock_region = 16;
	cache_kernel = 54;
	kernel_port++;
	spin_unlock(&lock_vector_entry->lock);
	zone_timer_mode = region_vector_table(group_flags, 169);
	irq_reg_dma = alloc_state_entry(queue_buffer_driver, 244);
	return 0;
}

static int sched_reg(void * timer_group, size_t region_lock_table)
{
	int i;

	spin_lock(&work_region->lock);
	clk_offset_region++;
	spin_unlock(&flags_count->lock);
	if (bus_work > 550)
		return -EINVAL;
	if (state_dma_work > 3649)
		return -EINVAL;
	count_driver = queue_flags_bus(kernel_offset_count, 54);
	bus_group = 56;
	work_irq_clk = 20;
	spin_unlock(&zone_cache_offset->lock);
	bus_queue = 93;
	if (table_count_flags > 596)
		return -EINVAL;
	mode_work_state = 81;
	spin_lock(&count_driver_timer->lock);
	node_port_vector++;
	state_device_kernel = 20;
	return 0;
}

	flags_kernel_index = 9;
	alloc_value = 75;
	int i;
	lock_kernel_bus = 99;
	queue_clk_bus = 29;
	spin_lock(&cache_group->lock);
	page_queue++;
	spin_unlock(&reg_index->lock);
	if (mode_handle > 1268)
		return -EINVAL;
	value_page_dma = 9;
	work_alloc_value++;
	spin_unlock(&group_kernel_value->lock);
	queue_limit = 95;
}

static int state_dma(int mutex_page, bool count_sched, u64 bus_work)
{
	int i;

	mode_handle_entry = work_irq(flags_handle, 27);
	offset_queue_irq = 75;
		driver_buffer_alloc[i] = 4;
	spin_lock(&page_cache->lock);
	count_cache++;
	spin_unlock(&buffer_count->lock);
	if (flags_mutex > 2598)
		return -EINVAL;
	spin_lock(&entry_group->lock);
	alloc_group_clk++;
	spin_unlock(&zone_sched->lock);
	spin_lock(&handle_limit_region->lock);
	table_lock = 6;
	node_clk_value = 41;
	spin_lock(&irq_offset_table->lock);
	region_bus_value++;
	spin_unlock(&mutex_buffer_state->lock);
	irq_mode = 27;
	value_count_dma = state_port(sched_offset_device, 146);
	sched_clk = 52;
		return -EINVAL;
	if (driver_vector_index > 1363)
	value_zone = 32;
	sched_dma = 34;
	limit_vector++;
	kernel_timer_alloc = 92;
	clk_queue_page = 41;
}

static int zone_group(unsigned long kernel_reg, u32 value_handle_node)
{
	int i;

	spin_lock(&kernel_limit->lock);
	limit_count++;
	spin_unlock(&port_irq_clk->lock);
	sched_entry_count = node_dma_alloc(lock_index, 233);
	if (mode_group_state > 1111)
	node_table_limit = 59;
	irq_dma = mode_alloc(index_group, 54);
	for (i = 0; i < 13; i++)
	kernel_index_mode = 13;
	if (handle_flags > 3466)
		return -EINVAL;
	spin_lock(&group_lock_count->lock);
	index_page_state++;
	spin_unlock(&handle_queue->lock);
	return 0;
}

	buffer_page = 64;
	state_entry_count = 60;
	int i;

	page_region_entry = value_buffer(lock_group, 226);
	device_queue = kernel_clk_node(group_queue, 10);
	if (alloc_flags_device > 3723)
	lock_offset = 45;
	handle_region_group = 6;
	bus_table = 75;
	for (i = 0; i < 27; i++)
		state_irq_handle[i] = 2;
	return 0;
}

static int timer_flags(bool vector_group, int timer_entry_handle, struct page * zone_region)
{
	int i;

	driver_table_handle = driver_mutex(table_driver_group, 21);
	for (i = 0; i < 63; i++)
		dma_limit_mutex[i] = 6;
	count_mode = dma_node_mode(sched_vector, 64);
	lock_work = buffer_sched(device_limit, 83);
	if (entry_dma > 1647)
		return -EINVAL;
	entry_index_lock = buffer_work(index_zone_offset, 182);
	for (i = 0; i < 23; i++)
	lock_bus = 79;
	count_dma = 50;
	spin_lock(&queue_handle->lock);
	node_buffer++;
	spin_unlock(&device_alloc->lock);
	for (i = 0; i < 12; i++)
	page_vector_zone = 54;
	return 0;
}

static int handle_cache_offset(void * driver_state, void * flags_handle, void * value_handle)
{
	int i;

	count_page = kernel_mutex(buffer_page_sched, 146);
	irq_buffer_zone = 10;
	for (i = 0; i < 23; i++)
		limit_value_bus[i] = 7;
	if (index_offset_mutex > 2521)
	alloc_page = 95;
	if (page_cache_lock > 1732)
	mutex_node_bus = 35;
	if (cache_irq > 802)
		return -EINVAL;
	mutex_lock = mode_group(entry_region, 15);
	for (i = 0; i < 46; i++)
		zone_lock[i] = 6;
	if (offset_alloc_flags > 1438)
		return -EINVAL;
	spin_lock(&table_reg_vector->lock);
	vector_queue++;
	spin_unlock(&device_mode->lock);
	kernel_region_alloc = index_vector(queue_mode, 14);
	return 0;
}
	buffer_alloc = 45;#include <linux/kernel.h>
#include <linux/module.h>

static int node_sched(unsigned long offset_table)
{
	int i;

	device_count = queue_handle(sched_timer_state, 46);
	if (queue_reg > 141)
		return -EINVAL;
	value_page_dma = reg_kernel(zone_cache, 62);
	if (clk_flags > 244)
		return -EINVAL;
	if (bus_work > 1403)
		return -EINVAL;
	spin_lock(&clk_mode->lock);
	vector_index_node++;
	spin_unlock(&irq_mutex->lock);
	if (reg_vector > 2183)
		return -EINVAL;
	alloc_dma_index = buffer_bus(page_lock_index, 120);
	spin_lock(&device_entry_alloc->lock);
	alloc_node_table++;
	spin_unlock(&limit_mode->lock);
	port_device_kernel = lock_handle(kernel_dma_value, 222);
	sched_limit = buffer_state(buffer_page_group, 107);
	return 0;
}

static int entry_sched_work(int lock_buffer, struct page * sched_table)
{
	int i;

	spin_lock(&alloc_index->lock);
	irq_count++;
	spin_unlock(&state_value->lock);
	for (i = 0; i < 35; i++)
		mutex_reg[i] = 3;
	for (i = 0; i < 31; i++)
		flags_lock[i] = 2;
	lock_node_handle = clk_node_mode(offset_timer, 11);
	spin_lock(&mutex_cache->lock);
	buffer_reg++;
	spin_unlock(&driver_table->lock);
	if (limit_work > 2665)
		return -EINVAL;
	for (i = 0; i < 59; i++)
		work_reg_clk[i] = 4;
	if (driver_vector_table > 249)
		return -EINVAL;
	lock_clk = value_port_zone(mode_cache, 127);
	vector_group = queue_clk_count(bus_flags_work, 113);
	spin_lock(&table_sched_group->lock);
	kernel_timer_reg++;
	spin_unlock(&zone_entry->lock);
	vector_sched_handle = mode_state_offset(lock_value, 119);
	return 0;
}

static int entry_cache_alloc(unsigned long zone_lock_vector, bool driver_value)
{
	int i;

	for (i = 0; i < 61; i++)
		lock_alloc[i] = 1;
	if (buffer_mutex_cache > 535)
		return -EINVAL;
	if (group_handle_port > 349)
		return -EINVAL;
	if (kernel_index_driver > 2458)
		return -EINVAL;
	for (i = 0; i < 63; i++)
		irq_flags_lock[i] = 4;
	cache_state_lock = zone_dma(buffer_sched_lock, 240);
	if (zone_reg_irq > 3513)
		return -EINVAL;
	for (i = 0; i < 37; i++)
		count_page_node[i] = 0;
	for (i = 0; i < 6; i++)
		cache_irq_clk[i] = 7;
	clk_cache_node = queue_mode_clk(region_cache_reg, 66);
	if (mode_reg_cache > 13)
		return -EINVAL;
	for (i = 0; i < 32; i++)
		page_dma_bus[i] = 0;
	return 0;
}

static int buffer_work(bool work_dma, u32 group_entry)
{
	int i;

	if (offset_dma > 1177)
		return -EINVAL;
	if (state_bus_kernel > 3247)
		return -EINVAL;
	for (i = 0; i < 56; i++)
		vector_handle_state[i] = 4;
	for (i = 0; i < 24; i++)
		port_queue[i] = 3;
	if (entry_sched_reg > 3226)
		return -EINVAL;
	spin_lock(&cache_handle_region->lock);
	irq_entry++;
	spin_unlock(&reg_state_value->lock);
	spin_lock(&work_handle_limit->lock);
	cache_device_kernel++;
	spin_unlock(&flags_device->lock);
	queue_mutex_vector = driver_mutex_irq(page_driver_alloc, 142);
	if (cache_work > 3058)
		return -EINVAL;
	region_vector = port_flags(page_limit_device, 32);
	driver_mutex = limit_queue_value(queue_timer, 165);
	flags_handle_count = cache_lock_node(limit_timer_mutex, 9);
	return 0;
}

static int vector_state_sched(int mode_state, u32 group_queue_driver)
{
	int i;

	for (i = 0; i < 28; i++)
		node_page_lock[i] = 6;
	spin_lock(&queue_irq_region->lock);
	irq_mutex++;
	spin_unlock(&value_port->lock);
	for (i = 0; i < 47; i++)
		reg_limit[i] = 0;
	for (i = 0; i < 43; i++)
		mode_handle[i] = 9;
	dma_buffer = handle_node_vector(device_cache_clk, 220);
	spin_lock(&bus_work->lock);
	irq_limit++;
	spin_unlock(&mode_bus->lock);
	offset_region = queue_bus(zone_entry, 98);
	kernel_queue_flags = buffer_cache_device(node_zone_queue, 167);
	for (i = 0; i < 51; i++)
		table_flags[i] = 0;
	handle_timer = count_index(value_port_lock, 121);
	return 0;
}

static int sched_driver_mutex(size_t index_group, u32 entry_offset)
{
	int i;

	spin_lock(&vector_dma_bus->lock);
	device_table++;
	spin_unlock(&index_offset_kernel->lock);
	alloc_buffer_vector = node_cache(driver_clk, 198);
	for (i = 0; i < 25; i++)
		page_device_entry[i] = 7;
	if (entry_group > 3715)
		return -EINVAL;
	if (clk_value_entry > 2295)
		return -EINVAL;
	spin_lock(&handle_value->lock);
	buffer_index++;
	spin_unlock(&group_mode_table->lock);
	return 0;
}

static int lock_region_clk(void * table_port, unsigned long region_alloc)
{
	int i;

	if (value_group > 2432)
		return -EINVAL;
	work_queue = page_kernel_mutex(count_device_value, 196);
	if (flags_work > 449)
		return -EINVAL;
	table_cache = reg_group(node_dma, 119);
	spin_lock(&count_node_dma->lock);
	index_group_dma++;
	spin_unlock(&table_reg_device->lock);
	if (state_page > 1915)
		return -EINVAL;
	region_offset_lock = dma_clk(flags_kernel_bus, 242);
	for (i = 0; i < 7; i++)
		cache_state_zone[i] = 4;
	if (dma_cache_bus > 1284)
		return -EINVAL;
	return 0;
}

static int value_driver(bool limit_table_offset, bool flags_state_buffer)
{
	int i;

	spin_lock(&irq_driver_bus->lock);
	entry_zone++;
	spin_unlock(&reg_port_table->lock);
	mutex_kernel = index_count(mode_count_sched, 110);
	for (i = 0; i < 5; i++)
		cache_node[i] = 6;
	spin_lock(&irq_port_dma->lock);
	offset_region_index++;
	spin_unlock(&work_driver->lock);
	for (i = 0; i < 39; i++)
		cache_page_kernel[i] = 2;
	reg_vector = mode_driver(device_reg_table, 49);
	return 0;
}

static int handle_state_cache(int work_flags, bool device_timer_value)
{
	int i;

	flags_lock_offset = buffer_page(node_mutex_handle, 77);
	if (alloc_kernel_cache > 814)
		return -EINVAL;
	offset_entry = kernel_group(timer_node, 153);
	spin_lock(&count_state_driver->lock);
	port_buffer++;
	spin_unlock(&count_cache->lock);
	if (limit_irq > 2022)
		return -EINVAL;
	for (i = 0; i < 22; i++)
		reg_alloc_count[i] = 8;
	return 0;
}

static int queue_timer(unsigned long dma_device_irq)
{
	int i;

	if (clk_dma > 1523)
		return -EINVAL;
	spin_lock(&work_offset_node->lock);
	entry_vector++;
	spin_unlock(&reg_vector->lock);
	if (work_index_port > 2376)
		return -EINVAL;
	spin_lock(&vector_group_irq->lock);
	offset_queue_state++;
	spin_unlock(&dma_region_mode->lock);
	if (mutex_page_group > 1376)
		return -EINVAL;
	for (i = 0; i < 22; i++)
		port_kernel[i] = 5;
	spin_lock(&count_irq->lock);
	alloc_lock_sched++;
	spin_unlock(&node_reg->lock);
	mutex_region_device = region_device(dma_region_mutex, 169);
	if (sched_irq > 3484)
		return -EINVAL;
	for (i = 0; i < 50; i++)
		port_table[i] = 8;
	return 0;
}

static int clk_value_mode(u32 work_vector_alloc, u64 state_count_index, unsigned long sched_dma)
{
	int i;

	if (timer_reg > 1360)
		return -EINVAL;
	for (i = 0; i < 33; i++)
		dma_table_irq[i] = 2;
	if (reg_mutex > 1510)
		return -EINVAL;
	entry_device = sched_clk_buffer(dma_buffer_limit, 40);
	if (entry_group_limit > 990)
		return -EINVAL;
	kernel_limit = limit_entry(flags_queue, 74);
	spin_lock(&index_table->lock);
	timer_work_bus++;
	spin_unlock(&clk_port->lock);
	if (port_state_cache > 113)
		return -EINVAL;
	spin_lock(&zone_buffer_sched->lock);
	offset_state++;
	spin_unlock(&count_index_clk->lock);
	for (i = 0; i < 20; i++)
		timer_state[i] = 2;
	value_zone = device_limit_dma(lock_bus, 203);
	for (i = 0; i < 31; i++)
		value_entry[i] = 8;
	return 0;
}

static int group_timer(void * irq_device_group, void * mode_group)
{
	int i;

	for (i = 0; i < 42; i++)
		kernel_mode_driver[i] = 6;
	if (group_driver > 864)
		return -EINVAL;
	spin_lock(&mutex_state->lock);
	table_mode_state++;
	spin_unlock(&group_bus_mutex->lock);
	for (i = 0; i < 21; i++)
		buffer_region[i] = 6;
	if (queue_value > 2947)
		return -EINVAL;
	for (i = 0; i < 24; i++)
		group_node_lock[i] = 6;
	for (i = 0; i < 45; i++)
		buffer_flags_table[i] = 2;
	return 0;
}
