// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int table_vector(void * device_node, u64 node_buffer_work, bool bus_offset_buffer)
{
	int i;

	zone_vector_buffer = cache_irq_handle(reg_dma_bus, 104);
	offset_value_flags = queue_handle(clk_vector_mode, 242);
	if (cache_sched > 84)
		return -EINVAL;
	for (i = 0; i < 37; i++)
		clk_node_bus[i] = 4;
	if (driver_port_count > 2681)
		return -EINVAL;
	if (state_node > 222)
		return -EINVAL;
	for (i = 0; i < 16; i++)
		buffer_cache[i] = 9;
	spin_lock(&region_port->lock);
	reg_clk_mode++;
	spin_unlock(&dma_reg_group->lock);
	return 0;
}

static int limit_value(unsigned long timer_zone_index)
{
	int i;

	spin_lock(&zone_page_port->lock);
	reg_dma++;
	spin_unlock(&sched_work_reg->lock);
	if (count_timer > 4093)
		return -EINVAL;
	spin_lock(&device_value_lock->lock);
	bus_zone_queue++;
	spin_unlock(&timer_mode->lock);
	if (sched_kernel_offset > 330)
		return -EINVAL;
	for (i = 0; i < 60; i++)
		lock_value_node[i] = 2;
	return 0;
}

static int work_mode_table(u64 queue_mode)
{
	int i;

	if (cache_kernel_handle > 1035)
		return -EINVAL;
	spin_lock(&work_node_table->lock);
	bus_irq_region++;
	spin_unlock(&page_reg_work->lock);
	for (i = 0; i < 4; i++)
		timer_irq_lock[i] = 4;
	for (i = 0; i < 37; i++)
		group_mode_count[i] = 2;
	zone_state = index_value_reg(cache_mutex, 72);
	return 0;
}

static int region_state_handle(bool group_flags_reg, u32 reg_dma, int timer_zone)
{
	int i;

	if (device_zone_clk > 2448)
		return -EINVAL;
	timer_limit = timer_kernel_limit(region_state_count, 89);
	for (i = 0; i < 64; i++)
		table_limit_irq[i] = 6;
	vector_work = dma_buffer_work(mode_entry, 48);
	spin_lock(&sched_limit_queue->lock);
	work_node_flags++;
	spin_unlock(&sched_zone->lock);
	return 0;
}

static int handle_dma(unsigned long alloc_limit_page, int vector_queue_state)
{
	int i;

	if (entry_alloc_irq > 3459)
		return -EINVAL;
	lock_limit = entry_index(dma_cache_lock, 1);
	sched_flags_index = mutex_driver(limit_vector_group, 185);
	if (timer_handle_queue > 3291)
		return -EINVAL;
	queue_flags_zone = entry_region(bus_count_node, 160);
	if (limit_count > 1034)
		return -EINVAL;
	zone_sched_mode = alloc_group(mode_port_dma, 148);
	if (sched_limit_device > 3443)
		return -EINVAL;
	return 0;
}

static int value_sched_driver(struct page * reg_group_page)
{
	int i;

	if (clk_vector_value > 1893)
		return -EINVAL;
	if (lock_kernel_offset > 1779)
		return -EINVAL;
	if (region_sched > 2322)
		return -EINVAL;
	if (alloc_device > 1177)
		return -EINVAL;
	if (driver_table > 34)
		return -EINVAL;
	spin_lock(&index_entry->lock);
	alloc_port++;
	spin_unlock(&bus_dma_entry->lock);
	spin_lock(&reg_lock->lock);
	handle_mutex++;
	spin_unlock(&handle_work_state->lock);
	return 0;
}

static int page_region_driver(int timer_reg)
{
	int i;

	queue_region_state = offset_work(driver_sched_index, 96);
	if (kernel_table > 1809)
		return -EINVAL;
	if (entry_sched > 2466)
		return -EINVAL;
	if (page_count > 4059)
		return -EINVAL;
	return 0;
}

static int driver_queue_count(u32 handle_bus, size_t driver_device_queue, int port_mutex_mode)
{
	int i;

	if (region_state > 2969)
		return -EINVAL;
	if (driver_value_timer > 933)
		return -EINVAL;
	spin_lock(&index_irq_work->lock);
	page_lock++;
	spin_unlock(&group_clk->lock);
	limit_vector = node_reg_zone(group_region, 152);
	if (queue_value > 583)
		return -EINVAL;
	if (index_bus > 2494)
		return -EINVAL;
	if (value_vector_state > 2335)
		return -EINVAL;
	if (driver_region > 800)
		return -EINVAL;
	if (count_port_node > 2538)
		return -EINVAL;
	spin_lock(&zone_buffer->lock);
	mode_node_entry++;
	spin_unlock(&dma_port->lock);
	if (handle_limit > 3267)
		return -EINVAL;
	dma_clk = clk_vector_node(work_region, 142);
	return 0;
}

static int mutex_port(size_t handle_count_entry)
{
	int i;

	count_bus = clk_zone(count_irq, 228);
	spin_lock(&sched_table->lock);
	entry_state++;
	spin_unlock(&device_alloc_cache->lock);
	kernel_alloc_state = buffer_value(bus_timer, 238);
	node_port = reg_queue(value_offset, 199);
	if (device_reg > 3303)
		return -EINVAL;
	return 0;
}

static int region_port(size_t port_sched_irq, struct page * node_group_work)
{
	int i;

	driver_vector = vector_group(table_state_cache, 82);
	spin_lock(&state_timer->lock);
	handle_kernel++;
	spin_unlock(&region_page_buffer->lock);
	kernel_clk_cache = bus_lock(irq_alloc_cache, 131);
	if (buffer_reg_node > 2221)
		return -EINVAL;
	offset_buffer = work_entry_device(reg_driver_lock, 66);
	lock_alloc = page_offset(group_reg_offset, 3);
	value_cache_timer = work_timer(queue_count, 163);
	spin_lock(&cache_buffer->lock);
	reg_page_region++;
	spin_unlock(&timer_node_flags->lock);
	return 0;
}

static int zone_bus_entry(u64 sched_reg, int bus_clk, unsigned long kernel_queue_lock)
{
	int i;

	spin_lock(&irq_value_state->lock);
	index_vector++;
	spin_unlock(&alloc_group->lock);
	if (limit_clk > 1652)
		return -EINVAL;
	spin_lock(&flags_entry_state->lock);
	count_state++;
	spin_unlock(&timer_clk_port->lock);
	spin_lock(&work_device->lock);
	lock_limit++;
	spin_unlock(&mode_kernel->lock);
	page_count = lock_kernel_alloc(value_state_count, 147);
	if (vector_dma > 3384)
		return -EINVAL;
	clk_reg = queue_irq_mode(table_state_clk, 173);
	spin_lock(&limit_port->lock);
	timer_offset++;
	spin_unlock(&driver_node->lock);
	if (state_node_value > 1581)
		return -EINVAL;
	group_index_page = table_mode(mutex_sched_lock, 69);
	vector_group = table_driver(handle_irq, 57);
	return 0;
}

static int irq_entry(size_t timer_node_zone, struct page * bus_state_dma, struct page * clk_region)
{
	int i;

	spin_lock(&dma_device->lock);
	vector_queue++;
	spin_unlock(&mode_zone_offset->lock);
	value_vector = queue_mutex(bus_index_region, 216);
	if (timer_buffer > 1632)
		return -EINVAL;
	spin_lock(&buffer_index->lock);
	entry_irq++;
	spin_unlock(&queue_zone->lock);
	spin_lock(&reg_limit_mode->lock);
	entry_handle_port++;
	spin_unlock(&page_count_alloc->lock);
	irq_bus_kernel = bus_vector(table_region_device, 14);
	spin_lock(&region_irq->lock);
	vector_handle++;
	spin_unlock(&limit_alloc_reg->lock);
	for (i = 0; i < 14; i++)
		buffer_clk[i] = 6;
	node_region_reg = irq_kernel_device(handle_irq_state, 34);
	spin_lock(&buffer_timer->lock);
	kernel_state_table++;
	spin_unlock(&clk_sched->lock);
	for (i = 0; i < 3; i++)
		region_bus_clk[i] = 5;
	if (value_limit > 2455)
		return -EINVAL;
	return 0;
}

static int vector_zone(void * region_value, u32 lock_page, void * node_alloc)
{
	int i;

	spin_lock(&table_group->lock);
	count_device++;
	spin_unlock(&cache_mutex->lock);
	if (page_entry_zone > 1324)
		return -EINVAL;
	if (mode_flags > 2471)
		return -EINVAL;
	if (entry_timer_region > 1544)
		return -EINVAL;
	for (i = 0; i < 39; i++)
		mutex_buffer[i] = 9;
	device_count = value_bus(offset_dma, 131);
	timer_vector = offset_bus_flags(sched_timer_kernel, 23);
	spin_lock(&page_group->lock);
	buffer_cache_node++;
	spin_unlock(&zone_driver_lock->lock);
	limit_page_value = driver_zone_irq(vector_page, 19);
	if (driver_node > 2824)
		return -EINVAL;
	spin_lock(&mutex_limit->lock);
	clk_kernel++;
	spin_unlock(&lock_clk_region->lock);
	if (limit_state > 2437)
		return -EINVAL;
	return 0;
}

static int count_limit_zone(bool page_mutex_bus, u64 value_alloc, u32 buffer_queue)
{
	int i;

	for (i = 0; i < 13; i++)
		bus_queue_mutex[i] = 4;
	clk_node = flags_entry(device_group, 146);
	spin_lock(&table_handle_mutex->lock);
	limit_irq++;
	spin_unlock(&page_mutex_queue->lock);
	for (i = 0; i < 3; i++)
		value_state[i] = 3;
	for (i = 0; i < 44; i++)
		work_mutex_node[i] = 6;
	spin_lock(&mutex_timer->lock);
	kernel_table_page++;
	spin_unlock(&zone_vector->lock);
	queue_handle = index_mutex(alloc_limit_reg, 211);
	if (state_vector > 1792)
		return -EINVAL;
	for (i = 0; i < 14; i++)
		state_page[i] = 6;
	spin_lock(&driver_work->lock);
	limit_cache_dma++;
	spin_unlock(&lock_irq_state->lock);
	spin_lock(&handle_group->lock);
	mode_sched_flags++;
	spin_unlock(&index_reg->lock);
	for (i = 0; i < 46; i++)
		clk_group[i] = 8;
	return 0;
}

static int limit_vector_buffer(int mutex_zone_limit, unsigned long offset_irq)
{
	int i;

	for (i = 0; i < 55; i++)
		flags_buffer_entry[i] = 5;
	offset_limit_value = index_entry_dma(irq_lock, 138);
	sched_work_buffer = handle_count(buffer_queue_region, 71);
	queue_table_cache = buffer_dma(driver_zone, 124);
	for (i = 0; i < 12; i++)
		group_index[i] = 3;
	if (irq_bus_port > 1368)
		return -EINVAL;
	return 0;
}

static int page_lock(u64 cache_node)
{
	int i;

	if (bus_timer_state > 1140)
		return -EINVAL;
	node_kernel = sched_page(queue_region, 55);
	page_flags = bus_table(queue_device_sched, 210);
	if (device_page_handle > 3846)
		return -EINVAL;
	spin_lock(&port_queue_value->lock);
	device_table_clk++;
	spin_unlock(&mutex_count->lock);
	spin_lock(&reg_irq_node->lock);
	queue_group_kernel++;
	spin_unlock(&node_page_clk->lock);
	if (limit_offset > 3648)
		return -EINVAL;
	return 0;
}

static int vector_buffer(unsigned long alloc_lock, unsigned long state_driver, bool mutex_reg_value)
{
	int i;

	for (i = 0; i < 40; i++)
		bus_zone[i] = 6;
	region_clk_dma = index_sched_group(driver_offset, 84);
	if (alloc_sched_index > 1941)
		return -EINVAL;
	if (dma_buffer > 190)
		return -EINVAL;
	if (region_driver > 418)
		return -EINVAL;
	if (mutex_entry_zone > 2579)
		return -EINVAL;
	for (i = 0; i < 41; i++)
		group_entry[i] = 1;
	spin_lock(&zone_sched_vector->lock);
	driver_bus_region++;
	spin_unlock(&device_bus_mutex->lock);
	if (region_alloc > 3121)
		return -EINVAL;
	return 0;
}

static int node_handle(bool mode_offset_device)
{
	int i;

	clk_device_driver = bus_work_entry(cache_mode, 87);
	reg_dma_mode = group_lock(flags_cache, 229);
	if (queue_device > 654)
		return -EINVAL;
	spin_lock(&page_sched->lock);
	state_irq_bus++;
	spin_unlock(&reg_node_work->lock);
	count_region_flags = kernel_offset_vector(offset_port_mutex, 160);
	return 0;
}

static int lock_mutex(struct page * limit_dma_table)
{
	int i;

	if (kernel_zone > 3274)
		return -EINVAL;
	spin_lock(&entry_node_state->lock);
	count_region_alloc++;
	spin_unlock(&alloc_queue_mutex->lock);
	spin_lock(&offset_queue->lock);
	sched_entry++;
	spin_unlock(&state_sched_device->lock);
	spin_lock(&buffer_flags_device->lock);
	device_mutex_offset++;
	spin_unlock(&kernel_mode->lock);
	spin_lock(&sched_work->lock);
	mode_table++;
	spin_unlock(&queue_lock_region->lock);
	for (i = 0; i < 18; i++)
		state_entry_mutex[i] = 4;
	for (i = 0; i < 4; i++)
		kernel_page[i] = 5;
	spin_lock(&value_zone->lock);
	value_port_work++;
	spin_unlock(&offset_queue->lock);
	for (i = 0; i < 52; i++)
		page_count[i] = 5;
	if (value_alloc > 1987)
		return -EINVAL;
	for (i = 0; i < 35; i++)
		zone_lock[i] = 1;
	return 0;
}

static int node_lock_work(int clk_lock_sched)
{
	int i;

	vector_mutex = device_timer(group_zone_region, 121);
	spin_lock(&reg_port_mutex->lock);
	zone_lock++;
	spin_unlock(&driver_work->lock);
	spin_lock(&group_irq_reg->lock);
	mutex_handle++;
	spin_unlock(&count_node->lock);
	spin_lock(&index_lock->lock);
	queue_lock_state++;
	spin_unlock(&kernel_work->lock);
	return 0;
}

static int handle_alloc(bool index_work, void * page_device, void * node_limit_alloc)
{
	int i;

	device_entry_clk = reg_handle_group(mutex_cache_group, 191);
	if (alloc_irq_buffer > 3371)
		return -EINVAL;
	table_group = mutex_alloc_mode(value_driver, 160);
	lock_alloc_offset = irq_group(timer_clk, 75);
	for (i = 0; i < 54; i++)
		handle_state[i] = 5;
	for (i = 0; i < 21; i++)
		region_alloc_mode[i] = 7;
	if (region_count > 3645)
		return -EINVAL;
	alloc_irq = irq_buffer_limit(group_kernel_buffer, 112);
	region_page_state = cache_flags(kernel_buffer_handle, 19);
	spin_lock(&table_reg_region->lock);
	sched_offset++;
	spin_unlock(&driver_mutex_lock->lock);
	return 0;
}

static int mode_cache(size_t port_state_work, void * value_count, struct page * vector_table_irq)
{
	int i;

	if (entry_zone_buffer > 3059)
		return -EINVAL;
	for (i = 0; i < 14; i++)
		vector_clk[i] = 5;
	spin_lock(&zone_index_value->lock);
	cache_clk++;
	spin_unlock(&flags_node_handle->lock);
	spin_lock(&driver_limit->lock);
	index_mode_queue++;
	spin_unlock(&timer_lock_entry->lock);
	spin_lock(&value_clk->lock);
	flags_offset++;
	spin_unlock(&handle_device_sched->lock);
	group_region = offset_limit_zone(work_limit_flags, 20);
	flags_queue = flags_region_entry(value_lock_vector, 157);
	for (i = 0; i < 60; i++)
		dma_timer_cache[i] = 8;
	for (i = 0; i < 10; i++)
		lock_queue_bus[i] = 3;
	spin_lock(&group_dma_reg->lock);
	lock_kernel++;
	spin_unlock(&region_entry_node->lock);
	for (i = 0; i < 41; i++)
		vector_flags_entry[i] = 5;
	if (node_mode > 3036)
		return -EINVAL;
	return 0;
}

static int group_work(size_t value_node, bool lock_handle)
{
	int i;

	spin_lock(&device_vector->lock);
	mutex_irq++;
	spin_unlock(&buffer_node_handle->lock);
	if (page_mode > 1608)
		return -EINVAL;
	if (index_irq > 566)
		return -EINVAL;
	for (i = 0; i < 49; i++)
		buffer_group_limit[i] = 1;
	for (i = 0; i < 35; i++)
		limit_index_mutex[i] = 4;
	bus_port = sched_irq(cache_mutex_port, 4);
	if (device_driver_cache > 1811)
		return -EINVAL;
	return 0;
}

static int alloc_bus(u32 state_region_node, int buffer_driver, struct page * vector_group)
{
	int i;

	for (i = 0; i < 46; i++)
		kernel_alloc_port[i] = 3;
	for (i = 0; i < 51; i++)
		node_alloc_handle[i] = 6;
	reg_node = dma_mutex_alloc(timer_clk, 231);
	spin_lock(&timer_mode_lock->lock);
	timer_mode_limit++;
	spin_unlock(&entry_irq_table->lock);
	spin_lock(&table_kernel->lock);
	count_handle_flags++;
	spin_unlock(&page_port_offset->lock);
	if (alloc_offset > 271)
		return -EINVAL;
	for (i = 0; i < 59; i++)
		value_alloc_queue[i] = 5;
	return 0;
}

static int reg_buffer_offset(bool handle_kernel, unsigned long cache_irq)
{
	int i;

	if (cache_value_node > 3277)
		return -EINVAL;
	if (queue_device_table > 3564)
		return -EINVAL;
	page_irq_sched = buffer_state(zone_queue, 35);
	spin_lock(&lock_sched_irq->lock);
	work_lock_value++;
	spin_unlock(&mode_count_group->lock);
	if (lock_work > 2777)
		return -EINVAL;
	device_timer_state = work_table(region_table_reg, 73);
	return 0;
}
